"""`scf` for numpy values: xDSL's implementations, with a numpy `scf.for`.

xDSL's `scf.for` reads its bounds as `IntegerAttr`s; here they are numpy
integers and the induction variable keeps the bounds' type; `scf.index_switch`
likewise reads a numpy index.  `scf.while` is registered for tnpu's `WhileOp`
(a printer fix of xDSL's).
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.interpreter import Interpreter, PythonValues, impl, register_impls
from xdsl.interpreters.scf import ScfFunctions as XdslScfFunctions

from tnpu.dialects import scf as tnpu_scf
from tnpu.interpreters.values import as_value


@register_impls
class ScfFunctions(XdslScfFunctions):
    @impl(scf.ForOp)
    def run_for(self, interpreter: Interpreter, op: scf.ForOp, args: PythonValues) -> PythonValues:
        lower, upper, step, *loop_values = args
        values = tuple(loop_values)
        for index in range(int(lower), int(upper), int(step)):
            values = interpreter.run_ssacfg_region(
                op.body, (as_value(index, op.lb.type), *values), "for_loop"
            )
        return values

    @impl(tnpu_scf.WhileOp)
    def run_tnpu_while(
        self, interpreter: Interpreter, op: tnpu_scf.WhileOp, args: PythonValues
    ) -> PythonValues:
        return XdslScfFunctions.run_while(self, interpreter, op, args).values

    @impl(scf.IndexSwitchOp)
    def run_index_switch(
        self, interpreter: Interpreter, op: scf.IndexSwitchOp, args: PythonValues
    ) -> PythonValues:
        cases = op.cases.get_values()
        index = int(args[0])
        region = op.case_regions[cases.index(index)] if index in cases else op.default_region
        return interpreter.run_ssacfg_region(region, (), "index_switch")
