"""Camera frame -> Observation: pure functions on numpy arrays (see DESIGN.md, Layers)."""
