"""Pure, deterministic sizing functions: pydantic in, pydantic out, every figure with its breakdown."""
