//! Two-sided tests of the sign client (filled below).
