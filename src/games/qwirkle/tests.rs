//! Hand-worked positions, fixtures, the generator cross-check.

use super::*;
