"""The sandbox runtimes' canonical values: deterministic, identity-free, and always inside the
grammar the host accepts (so an honest run is never refused as malformed)."""

from __future__ import annotations

import dataclasses
import decimal
import enum
import importlib.util
import json
import subprocess

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from challenges.judge.values import check_value
from challenges.sandbox.layout import DRIVERS_DIR

_spec = importlib.util.spec_from_file_location("probe_runtime_under_test", DRIVERS_DIR / "probe_runtime.py")
runtime = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(runtime)


class Colour(enum.Enum):
    RED = 1


@dataclasses.dataclass
class Booking:
    ref: str
    window: tuple


class Plain:
    def __init__(self):
        self.b, self.a = 2, [1]


python_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20) | st.binary(max_size=8)
    | st.decimals(allow_nan=False, places=3) | st.sampled_from([Colour.RED, Plain(), Booking("a", (1, 2))]),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.frozensets(st.integers(), max_size=4)
    | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=8)


@given(python_values)
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_python_value_canonicalises_inside_the_host_grammar(value):
    tree = runtime.canonical(value)
    assert check_value(tree) is tree
    assert json.dumps(tree) == json.dumps(runtime.canonical(value))


def test_python_canonical_forms():
    c = runtime.canonical
    assert c({3, 1, 2}) == c({2, 3, 1}) == {"set": [{"num": "1"}, {"num": "2"}, {"num": "3"}]}
    assert c({"b": 1, "a": 2}) == c({"a": 2, "b": 1})
    assert c(10.0) == c(10) == {"num": "10"} and c(0.1) == {"num": "0.1"} and c(True) is True
    assert c(decimal.Decimal("4.80")) == c(decimal.Decimal("4.8"))
    assert c(Plain()) == {"object": ["Plain", [["a", [{"num": "1"}]], ["b", {"num": "2"}]]]}
    assert c(Booking("x", (1,))) == {"object": ["Booking", [["ref", "x"], ["window", {"tuple": [{"num": "1"}]}]]]}
    assert "0x" not in json.dumps(c(object()))  # no identity
    loop: list = []
    loop.append(loop)
    assert check_value(c(loop))
    long = c("x" * 10_000)
    assert set(long) == {"str", "len", "sha256"} and long["len"] == 10_000


def test_javascript_canonical_forms_are_inside_the_host_grammar():
    script = f"""
const rt = require({json.dumps(str(DRIVERS_DIR / 'probe_runtime.cjs'))});
class Booking {{ constructor() {{ this.z = 1; this.a = [new Set([3, 1]), new Map([['k', 2]])]; }} }}
const loop = []; loop.push(loop);
const values = [null, undefined, true, 0.1, -0, NaN, 10n, 'x'.repeat(5000), [1, [2]], {{ b: 1, a: 2 }},
  new Booking(), new Error('boom'), new Date(0), /re/g, Symbol('s'), Booking, () => 1, loop, Buffer.from('ab')];
console.log(JSON.stringify(values.map((v) => rt.canonical(v))));
"""
    out = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True).stdout
    trees = json.loads(out)
    for tree in trees:
        check_value(tree)
    assert trees[3] == {"num": "0.1"} and trees[4] == {"num": "0"} and trees[1] == {"undefined": ""}
    assert trees[9] == {"object": ["Object", [["a", {"num": "2"}], ["b", {"num": "1"}]]]}
    assert trees[10]["object"][0] == "Booking" and trees[10]["object"][1][0][1][0] == {"set": [{"num": "1"}, {"num": "3"}]}
    assert trees[11]["error"][0] == "Error"
