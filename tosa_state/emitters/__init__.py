"""What tosa-state writes besides MLIR text (`tosa_state.printing`): the TOSA flatbuffer
(`tosa_flatbuffer`) and the state manifest beside it (`manifest`)."""
