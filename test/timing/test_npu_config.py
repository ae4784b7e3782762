"""NPU descriptions: the presets DESIGN.md specifies, user files, and their validation."""

from __future__ import annotations

import pytest
import yaml

from tnpu.timing.npu_config import NPUConfigError, load_npu_config, preset_names


def test_the_presets_are_pytorchsims_tpuv3_and_tpuv6e():
    assert preset_names() == ["tpuv3", "tpuv3x2", "tpuv4", "tpuv6e"]
    v3, v6e = load_npu_config("tpuv3"), load_npu_config("tpuv6e")
    assert (v3.num_cores, v3.core_freq_mhz, v3.num_systolic_array_per_core) == (1, 940, 2)
    assert (v3.systolic_array_rows, v3.systolic_array_cols) == (128, 128)
    assert (v3.vpu_num_lanes, v3.vpu_spad_size_kb_per_lane, v3.vpu_vector_length_bits) == (128, 128, 256)
    assert v3.dram_channels == 16
    assert (v3.dma_outstanding_per_engine, v3.dma_issue_cycles) == (16, 2)
    assert (v6e.core_freq_mhz, v6e.num_systolic_array_per_core) == (3502, 2)
    assert (v6e.systolic_array_rows, v6e.systolic_array_cols) == (256, 256)
    assert (v6e.vpu_num_lanes, v6e.vpu_spad_size_kb_per_lane, v6e.vpu_vector_length_bits) == (256, 512, 512)
    assert v6e.dram_channels == 32
    assert (v6e.dma_outstanding_per_engine, v6e.dma_issue_cycles) == (64, 2)


def test_the_outstanding_limits_cover_each_drams_bandwidth_delay_product():
    """Little's law with 4 KB transfers, as the presets' comments derive it: the
    transfers in flight the DRAM needs to stay busy fit in the limit."""
    for name in preset_names():
        config = load_npu_config(name)
        service = 4096 / config.dram_bytes_per_cycle
        in_flight = (config.dram_latency_cycles + service) / service
        assert in_flight <= config.dma_outstanding_per_engine < 2 * in_flight, name


def test_the_two_core_chips():
    """tpuv3x2 is tpuv3's core twice on 32 HBM2 channels (PyTorchSim's c2); tpuv4 is the ISCA 2023
    paper's chip: 2 cores of 4 MXUs at 1050 MHz, 275 TFLOP/s, 1200 GB/s, 16 MiB of VMEM per core."""
    v3, v3x2, v4 = load_npu_config("tpuv3"), load_npu_config("tpuv3x2"), load_npu_config("tpuv4")
    assert (v3x2.num_cores, v3x2.dram_channels) == (2, 32)
    assert v3x2.macs_per_cycle == v3.macs_per_cycle and v3x2.scratchpad_bytes == v3.scratchpad_bytes
    assert (v4.num_cores, v4.core_freq_mhz, v4.num_systolic_array_per_core) == (2, 1050, 4)
    assert round(2 * v4.macs_per_cycle * v4.num_cores * v4.core_freq_mhz / 1e6) == 275
    assert v4.dram_channels * v4.dram_bandwidth_gbps_per_channel == 1200
    assert v4.scratchpad_bytes == 16 * 2**20


def test_tpuv6e_inherits_the_vector_op_tables_of_tpuv3():
    v3, v6e = load_npu_config("tpuv3"), load_npu_config("tpuv6e")
    assert v6e.vpu_op_latency_cycles == v3.vpu_op_latency_cycles
    assert v6e.vpu_native_math_ops == v3.vpu_native_math_ops


def test_rates_in_the_core_clock():
    config = load_npu_config("tpuv3")
    # 16 channels of 32 GB/s at 940 MHz.
    assert config.dram_bytes_per_cycle == pytest.approx(16 * 32e9 / 940e6)
    assert config.dram_latency_cycles == 94  # 100 ns at 940 MHz
    assert config.scratchpad_bytes == 128 * 1024 * 128
    assert config.vector_width(32) == 128 * 8
    assert config.vector_width(16) == 128 * 16
    assert config.vector_width(512) == 128  # one element per lane at least
    assert config.macs_per_cycle == 2 * 128 * 128
    assert config.op_latency("arith.addf") == 4
    assert config.op_latency("arith.xori") == config.vpu_op_latency_cycles["default"]


def write(tmp_path, data) -> str:
    path = tmp_path / "npu.yaml"
    path.write_text(yaml.safe_dump(data))
    return str(path)


def test_a_user_file_may_start_from_a_preset(tmp_path):
    config = load_npu_config(write(tmp_path, {"base": "tpuv3", "num_cores": 4, "dram_channels": 32}))
    assert (config.name, config.num_cores, config.dram_channels) == ("npu", 4, 32)
    assert config.core_freq_mhz == load_npu_config("tpuv3").core_freq_mhz


def test_a_complete_user_file_stands_alone(tmp_path):
    import tnpu.timing.npu_config as npu_config
    from importlib import resources

    preset = yaml.safe_load(
        resources.files(npu_config.PRESET_PACKAGE).joinpath("tpuv3.yaml").read_text()
    )
    config = load_npu_config(write(tmp_path, preset | {"name": "mine", "core_freq_mhz": 1000}))
    assert (config.name, config.core_freq_mhz) == ("mine", 1000)


def test_every_problem_is_one_line(tmp_path):
    path = write(
        tmp_path,
        {
            "base": "tpuv3",
            "num_cores": 0,
            "dram_chanels": 8,
            "vpu_vector_length_bits": 100,
            "vpu_op_issue_cycles": {"default": 1, "cross_lane": 0},
            "vpu_native_math_ops": ["exp"],
            "dma_outstanding_per_engine": 0,
            "dma_issue_cycles": -1,
        },
    )
    with pytest.raises(NPUConfigError) as error:
        load_npu_config(path)
    lines = str(error.value).splitlines()
    assert lines == [
        f"{path}: dram_chanels: unknown key (did you mean 'dram_channels'?)",
        f"{path}: num_cores: expected a positive integer, got 0",
        f"{path}: vpu_vector_length_bits: expected a positive multiple of 8 bits, got 100",
        f"{path}: vpu_op_issue_cycles: 'cross_lane' must map to a whole number of cycles >= 1, "
        "got 0",
        f"{path}: vpu_native_math_ops: expected a list of math op names like math.exp, got ['exp']",
        f"{path}: dma_outstanding_per_engine: expected a positive integer, got 0",
        f"{path}: dma_issue_cycles: expected a number >= 0, got -1",
    ]


def test_missing_keys_and_unknown_names(tmp_path):
    with pytest.raises(NPUConfigError, match="num_cores: missing"):
        load_npu_config(write(tmp_path, {"core_freq_mhz": 1000}))
    with pytest.raises(NPUConfigError, match="unknown NPU 'tpuv9'.*tpuv3, tpuv3x2, tpuv4, tpuv6e"):
        load_npu_config("tpuv9")
    with pytest.raises(NPUConfigError, match="base: unknown preset 'tpuv9'"):
        load_npu_config(write(tmp_path, {"base": "tpuv9"}))
    with pytest.raises(NPUConfigError, match="no such file"):
        load_npu_config(tmp_path / "absent.yaml")
    (tmp_path / "broken.yaml").write_text("num_cores: [1\n")
    with pytest.raises(NPUConfigError, match="not YAML"):
        load_npu_config(tmp_path / "broken.yaml")
    with pytest.raises(NPUConfigError, match="needs entries cross_lane, got default"):
        load_npu_config(write(tmp_path, {"base": "tpuv3", "vpu_op_latency_cycles": {"default": 1}}))
