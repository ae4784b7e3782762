"""How `ttir-to-tile` lowers each TTIR op family, one module a family.

Each module holds an `OpLowerings` of functions registered by op class
(`@LOWERINGS.lowers(tt.LoadOp)`); `tnpu.lowering.ttir_to_tile` dispatches
to them.  A new lowering is one function in the family it belongs to.
"""
