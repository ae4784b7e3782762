"""Compiled outputs judged against eager and a float64 evaluation (tnpu.models.compare)."""

from __future__ import annotations

import torch

from tnpu.models.compare import compare, leaves


def sums(dtype):
    """A long dot product summed in two orders: both right, neither equal to the other."""
    torch.manual_seed(1)
    a, b = torch.randn(64, 4096), torch.randn(4096)
    exact = (a.double() * b.double()).sum(-1)
    forward = (a.to(dtype) * b.to(dtype)).sum(-1)
    backward = (a.to(dtype).flip(-1) * b.to(dtype).flip(-1)).cumsum(-1)[:, -1]
    return forward, backward, exact


def test_a_sum_in_another_order_matches():
    forward, backward, exact = sums(torch.float32)
    assert not torch.equal(forward, backward)
    verdict = compare("out", backward, forward, exact)
    assert verdict.match and verdict.eager_error > 0


def test_one_element_a_thousand_ulps_off_is_caught():
    forward, _, exact = sums(torch.float32)
    wrong = forward.clone()
    wrong[17] = torch.nextafter(wrong[17], torch.tensor(float("inf")))
    for _ in range(10):
        wrong[17] += wrong[17].abs() * 2**-23 * 100
    verdict = compare("out", wrong, forward, exact)
    assert not verdict.match and verdict.detail.startswith("at [17]")


def test_special_values_must_sit_at_the_same_places():
    eager = torch.tensor([1.0, float("nan"), float("inf"), -float("inf")])
    assert compare("out", eager.clone(), eager, eager.double()).match
    swapped = torch.tensor([1.0, float("inf"), float("nan"), -float("inf")])
    assert not compare("out", swapped, eager, eager.double()).match
    negated = torch.tensor([1.0, float("nan"), -float("inf"), -float("inf")])
    assert not compare("out", negated, eager, eager.double()).match


def test_integers_are_equal_or_wrong_and_shapes_must_agree():
    indices = torch.arange(10)
    assert compare("i", indices.clone(), indices, indices).match
    assert not compare("i", indices.flip(0), indices, indices).match
    verdict = compare("x", torch.zeros(3, 2), torch.zeros(2, 3), torch.zeros(2, 3, dtype=torch.float64))
    assert not verdict.match and "(2, 3)" in verdict.detail


def test_leaves_name_every_tensor_of_a_nested_result():
    result = {"loss": torch.tensor(1.0), "grad": {"w": torch.zeros(2)}, "out": (torch.ones(1), [torch.ones(2)])}
    assert [name for name, _ in leaves(result)] == [
        "out['loss']", "out['grad']['w']", "out['out'][0]", "out['out'][1][0]"
    ]
