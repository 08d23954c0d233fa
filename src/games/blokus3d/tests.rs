//! Blokus 3D tests: pieces, areas, notation, perft, the fast generator
//! against a slow one.
