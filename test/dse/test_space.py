"""Design spaces: the points, constraints, canonical hashes, and the one-line refusals."""

from __future__ import annotations

import pytest

from tnpu.dse.space import SpaceError, canonical_yaml, config_hash, space_from_options, space_from_yaml
from tnpu.timing.npu_config import load_npu_config


def test_points_are_the_product_of_the_axes_less_what_constraints_exclude():
    space = space_from_options(
        "tpuv3", ["systolic_array_rows=64,128,256", "systolic_array_cols=64,128,256"],
        ["systolic_array_rows <= systolic_array_cols"], None,
    )
    points = space.points()
    assert [dict(p.values) for p in points] == [
        {"systolic_array_rows": r, "systolic_array_cols": c}
        for r in (64, 128, 256) for c in (64, 128, 256) if r <= c
    ]
    for point in points:
        assert (point.npu.systolic_array_rows, point.npu.systolic_array_cols) == tuple(dict(point.values).values())
        assert point.npu.dram_channels == 16  # the rest is tpuv3's
        assert point.npu.name == f"tpuv3+systolic_array_rows={point.npu.systolic_array_rows}" \
                                 f"+systolic_array_cols={point.npu.systolic_array_cols}"
    assert len({p.config_hash for p in points}) == len(points) == 6


def test_a_point_equal_to_the_preset_has_the_presets_hash_whatever_its_name():
    (point,) = space_from_options("tpuv3", ["dram_channels=16"], [], None).points()
    assert point.npu.name != "tpuv3"
    assert point.config_hash == config_hash(load_npu_config("tpuv3"))
    assert "name:" not in canonical_yaml(point.npu)
    assert config_hash(load_npu_config("tpuv6e")) != point.config_hash


def test_a_yaml_space_with_list_values_and_a_cost(tmp_path):
    path = tmp_path / "space.yaml"
    path.write_text(
        "base: tpuv6e\n"
        "axes:\n"
        "  vpu_native_math_ops: [[math.exp], [math.exp, math.sqrt]]\n"
        "  dram_channels: [16, 32]\n"
        "constraints: ['dram_bandwidth_gbps >= 1000']\n"
        "cost: total_macs + dram_channels\n"
    )
    space = space_from_yaml(path)
    points = space.points()
    assert [p.npu.dram_channels for p in points] == [32, 32]
    assert [p.npu.vpu_native_math_ops for p in points] == [("math.exp",), ("math.exp", "math.sqrt")]
    assert space.cost_of(points[0].npu) == 2 * 256 * 256 + 32


@pytest.mark.parametrize(
    "vary, constraints, message",
    [
        (["systolic_array_rowz=64"], [],
         "--vary: systolic_array_rowz: unknown key (did you mean 'systolic_array_rows'?)"),
        (["dram_channels=8,many"], [], "--vary: dram_channels: expected a positive integer, got 'many'"),
        (["dram_latency_ns=fast"], [], "--vary: dram_latency_ns: expected a number >= 0, got 'fast'"),
        (["dram_channels=8,16"], ["dram_channels > 64"],
         "the constraints (dram_channels > 64) exclude every one of the 2 points"),
        (["dram_channels=8"], ["channels > 1"], "'channels > 1': unknown name 'channels'"),
        (["dram_channels=8"], ["__import__('os')"], "is not allowed"),
        (["dram_channels"], [], "--vary 'dram_channels' is not NAME=VALUE,VALUE,..."),
        (["dram_channels=8", "dram_channels=16"], [], "--vary: dram_channels: varied twice"),
        ([], [], "no axis to vary"),
    ],
)
def test_bad_spaces_are_one_line(vary, constraints, message):
    with pytest.raises(SpaceError) as error:
        space_from_options("tpuv3", vary, constraints, None).points()
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_an_unknown_base_is_the_config_loaders_line():
    with pytest.raises(SpaceError, match="unknown NPU 'tpuv9'"):
        space_from_options("tpuv9", ["dram_channels=8"], [], None)
