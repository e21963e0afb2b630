raise RuntimeError("this module refuses to load")
