"""`memql bench text2mem`: the Text2Mem Bench runner (gold IRs, later planners)."""
