// Intentionally empty: this target only exports system headers to Swift.
