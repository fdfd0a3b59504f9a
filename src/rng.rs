//! Deterministic randomness: a named generator (ChaCha8 from rand_chacha), and our own shuffle and
//! sampling, so that output never depends on another crate's algorithm choices.
