//! Tuning by play: simultaneous perturbation stochastic approximation (SPSA; J. C. Spall,
//! 1992), the method chess engines tune their numbers with (Stockfish's fishtest).
//!
//! Where Texel tuning ([`crate::tune`]) fits weights to what positions predict, SPSA moves
//! them by what wins: each iteration perturbs every tuned value at once, by `+c` or `-c` at
//! random (`δ`), plays a pair of games (one random opening, each side once) between the
//! weights `θ + cδ` and `θ − cδ`, and steps every value towards the winner in proportion to
//! the pair's result. The search's cost of a term and what the search does with it are in
//! the result; so is the noise of two games, which the small steps average away over
//! thousands of iterations.
//!
//! The gains follow Spall's schedule: at iteration `k` (from 0) of `n`, the perturbation is
//! `c_k = c / (k + 1)^0.101` and the step `a_k = a / (k + 1 + n/10)^0.602`, with `a` chosen
//! so that the last step is `rate · c_end²` (`rate` is fishtest's `R_end`; fishtest plays
//! tens of thousands of pairs at 0.002, a run of ply's thousands wants larger steps). A value's `c`
//! is its own: a tenth of its magnitude, and at least [`Spsa::MIN_SHARE`] of the game's value
//! scale, so values of very different sizes are perturbed alike in proportion.
//!
//! This module is the arithmetic alone (deterministic for a seed); `ply tune --spsa` plays
//! the games.

use crate::Rng;

/// An SPSA run's state: the current values and the schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    /// Every value of the weights, in file order (the untuned ones never move).
    theta: Vec<f64>,
    /// The indices perturbed and stepped.
    tuned: Vec<usize>,
    /// The final perturbation `c_end` of each value (0 for untuned ones).
    c_end: Vec<f64>,
    iterations: usize,
    rate: f64,
    seed: u64,
}

/// One iteration's two weight sets and the directions that made them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Perturbation {
    /// The iteration, from 0.
    pub iteration: usize,
    /// `θ + c_k δ` and `θ − c_k δ`, rounded to whole units (all values, in file order).
    pub plus: Vec<i32>,
    pub minus: Vec<i32>,
    /// `δ`, +1 or −1 for each tuned value (0 for the others).
    pub delta: Vec<i8>,
}

const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

impl Spsa {
    /// The smallest perturbation of a value, as a share of the game's value scale.
    pub const MIN_SHARE: f64 = 0.03;
    /// A value's perturbation as a share of its magnitude, where that is larger.
    pub const SHARE_OF_VALUE: f64 = 0.1;
    /// The default `R_end`: the last step is this times `c_end²` per unit gradient. Over a
    /// few thousand pairs it moves a value with a clear gradient by several `c`, while the
    /// pairs' noise moves it by about two.
    pub const DEFAULT_RATE: f64 = 0.05;

    /// A run of `iterations` game pairs from `start` (all values, in file order), tuning the
    /// values at `tuned`; `value_scale` is the game's
    /// [`value_scale`](ply_core::Evaluator::value_scale); `rate` sets the last step
    /// ([`DEFAULT_RATE`](Spsa::DEFAULT_RATE)); `seed` draws the perturbations.
    #[must_use]
    pub fn new(
        start: &[i32],
        tuned: Vec<usize>,
        value_scale: f64,
        iterations: usize,
        rate: f64,
        seed: u64,
    ) -> Spsa {
        let floor = Self::MIN_SHARE * value_scale.abs();
        let mut c_end = vec![0.0; start.len()];
        for &i in &tuned {
            c_end[i] = (Self::SHARE_OF_VALUE * f64::from(start[i]).abs()).max(floor).max(1.0);
        }
        Spsa {
            theta: start.iter().map(|&v| f64::from(v)).collect(),
            tuned,
            c_end,
            iterations: iterations.max(1),
            rate,
            seed,
        }
    }

    /// The current values, rounded.
    #[must_use]
    pub fn values(&self) -> Vec<i32> {
        self.theta.iter().map(|&v| v.round() as i32).collect()
    }

    /// The final perturbation of every value (0 for an untuned one).
    #[must_use]
    pub fn c_end(&self) -> &[f64] {
        &self.c_end
    }

    /// The perturbation scale at iteration `k`, relative to the final one.
    fn c_factor(&self, k: usize) -> f64 {
        let n = self.iterations as f64;
        (n / (k as f64 + 1.0)).powf(GAMMA)
    }

    /// The step gain at iteration `k`, relative to `c_end²` of a value: `rate` at the last
    /// iteration, larger before.
    fn a_factor(&self, k: usize) -> f64 {
        let n = self.iterations as f64;
        let stability = n / 10.0;
        self.rate * ((n + stability) / (k as f64 + 1.0 + stability)).powf(ALPHA)
    }

    /// Iteration `k`'s two weight sets (the same for the same seed and `k`, whatever the
    /// values are, so a batch of iterations drawn from one `θ` is reproducible).
    #[must_use]
    pub fn perturb(&self, k: usize) -> Perturbation {
        let mut rng = Rng::new(self.seed ^ (k as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03));
        let mut delta = vec![0i8; self.theta.len()];
        let (mut plus, mut minus) = (self.values(), self.values());
        let ck = self.c_factor(k);
        for &i in &self.tuned {
            let d: i8 = if rng.below(2) == 0 { 1 } else { -1 };
            delta[i] = d;
            let shift = f64::from(d) * self.c_end[i] * ck;
            plus[i] = (self.theta[i] + shift).round() as i32;
            minus[i] = (self.theta[i] - shift).round() as i32;
        }
        Perturbation { iteration: k, plus, minus, delta }
    }

    /// Steps the values by `perturbation`'s result: `result` is the `plus` side's score
    /// over the pair minus the `minus` side's, divided by the games (from −1, `minus` won
    /// both, to +1).
    pub fn update(&mut self, perturbation: &Perturbation, result: f64) {
        let k = perturbation.iteration;
        let (ak, ck) = (self.a_factor(k), self.c_factor(k));
        for &i in &self.tuned {
            // The gradient estimate is result / (2 c_k δ); the step a_k = rate' · c_end².
            let c = self.c_end[i];
            let step = ak * c * c * result / (2.0 * c * ck);
            self.theta[i] += step * f64::from(perturbation.delta[i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perturbations_move_only_the_tuned_values_by_their_own_size() {
        let spsa = Spsa::new(&[150, 20, 0, 7], vec![0, 2], 300.0, 100, 0.002, 1);
        let p = spsa.perturb(0);
        // c_end: 15 for 150, the floor 9 for 0; c_0 = c_end · 100^0.101.
        let f = 100f64.powf(GAMMA);
        for (i, c) in [(0, 15.0), (2, 9.0)] {
            let shift = (c * f).round() as i32;
            assert_eq!(p.plus[i] - spsa.values()[i], i32::from(p.delta[i]) * shift);
            assert_eq!(p.minus[i] - spsa.values()[i], -i32::from(p.delta[i]) * shift);
        }
        assert_eq!((p.plus[1], p.minus[1], p.plus[3], p.minus[3]), (20, 20, 7, 7));
        assert_eq!((p.delta[1], p.delta[3]), (0, 0));
        assert_eq!(p.plus[0] > 150, p.delta[0] == 1);
        assert_eq!(spsa.perturb(0), p, "the same seed and iteration, the same draw");
        let draws: Vec<i8> = (0..64).map(|k| spsa.perturb(k).delta[0]).collect();
        assert!(draws.contains(&1) && draws.contains(&-1));
    }

    #[test]
    fn values_move_towards_the_winning_side() {
        let mut spsa = Spsa::new(&[100, 100], vec![0, 1], 300.0, 1000, 0.002, 3);
        let p = spsa.perturb(5);
        spsa.update(&p, 1.0);
        let v = spsa.values();
        for (i, (value, delta)) in v.iter().zip(&p.delta).enumerate() {
            assert_eq!(*value > 100, *delta == 1, "value {i} moves towards plus");
        }
        let mut back = spsa.clone();
        back.update(&p, -1.0);
        assert_eq!(back.values(), vec![100, 100], "the opposite result undoes the step");
        let mut still = spsa.clone();
        still.update(&p, 0.0);
        assert_eq!(still, spsa, "an even pair changes nothing");
    }

    #[test]
    fn a_gradient_is_climbed_through_noise() {
        // A synthetic objective: the plus side's expected result grows with how much closer it
        // is to a hidden optimum, and each pair's result is that plus a coin's noise.
        let optimum = [180.0, -40.0, 60.0];
        let mut spsa = Spsa::new(&[150, 0, 20], vec![0, 1, 2], 300.0, 4000, 0.01, 9);
        let mut noise = Rng::new(77);
        let distance = |v: &[i32]| -> f64 {
            v.iter().zip(optimum).map(|(&x, o)| (f64::from(x) - o).powi(2)).sum::<f64>().sqrt()
        };
        let before = distance(&spsa.values());
        for k in 0..4000 {
            let p = spsa.perturb(k);
            let edge = (distance(&p.minus) - distance(&p.plus)) / 100.0;
            let coin = if noise.below(2) == 0 { 0.5 } else { -0.5 };
            spsa.update(&p, (edge + coin).clamp(-1.0, 1.0));
        }
        let after = distance(&spsa.values());
        assert!(after < before / 2.0, "{before} -> {after}: {:?}", spsa.values());
    }
}
