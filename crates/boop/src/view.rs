use crate::position::Boop;
