//! Texel tuning ([`ply_search::tune`]) recovers weights it is shown: positions of random
//! games labelled with the win chances that a known weight set predicts, and the fit,
//! started from the built-in weights, must move towards the known set and cut the error.

use std::sync::atomic::AtomicBool;

use ply_boop::{Boop, Weights};
use ply_core::{Evaluator, Game, PositionString, Tunable, Weights as _};
use ply_search::Rng;
use ply_search::tune::{Sample, TuneError, TuneSettings, tune};

fn random_positions(count: usize) -> Vec<Boop> {
    let mut rng = Rng::new(7);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut g = Boop::new("boop").expect("a variant");
        for _ in 0..rng.below(40) {
            g.legal_moves(&mut moves);
            if g.outcome().is_some() || moves.is_empty() {
                break;
            }
            g.play(moves[rng.below(moves.len())]);
        }
        if g.outcome().is_none() {
            out.push(g);
        }
    }
    out
}

/// `count` positions of random games, each labelled with the win chance `σ(k · e)` that
/// `weights` give it.
fn labelled_by(weights: Weights, count: usize, k: f64) -> Vec<Sample> {
    let truth = ply_boop::Eval::with_weights(weights);
    random_positions(count)
        .iter()
        .enumerate()
        .map(|(i, p)| Sample {
            position: p.position_string(),
            game: i,
            result: 1.0 / (1.0 + (-k * f64::from(truth.evaluate(p))).exp()),
        })
        .collect()
}

#[test]
fn the_fit_finds_the_weights_that_made_the_labels() {
    let built_in = *ply_boop::Eval::default().weights();
    let mut known = built_in;
    known.values_mut()[Weights::CAT] = 200;
    known.values_mut()[Weights::TEMPO] = 70;
    known.values_mut()[Weights::TWO_CATS_OPEN] = 100;
    let k = 1.0 / 300.0;
    let samples = labelled_by(known, 3000, k);
    let settings =
        TuneSettings { start: "default".into(), passes: 60, threads: 2, hold: Vec::new() };
    let report =
        tune::<Boop>(&samples, &settings, &mut |_| {}, &AtomicBool::new(false)).expect("fits");
    assert!(
        report.training_after < report.training_before / 4.0,
        "error {} -> {}",
        report.training_before,
        report.training_after
    );
    assert!(report.held_out_after < report.held_out_before / 4.0);
    let fitted = Weights::read(&report.weights).expect("a weights file");
    // K is fitted to the starting weights and then held, so the fit finds the known weights
    // on its own scale: K times a weight is what the labels determine.
    for i in Weights::tuned_indices() {
        let (to, target) = (f64::from(fitted.values()[i]), f64::from(known.values()[i]));
        let scaled = to * report.k / k;
        assert!(
            (scaled - target).abs() <= 2.0 + 0.03 * target.abs(),
            "{}: {} -> {to} (scaled {scaled:.1}), made with {target}",
            Weights::value_name(i),
            built_in.values()[i]
        );
    }
    // The fixed weight is left alone.
    assert_eq!(fitted[Weights::CAT_LINE], built_in[Weights::CAT_LINE]);
}

#[test]
fn held_values_keep_their_starting_value_and_unknown_names_are_refused() {
    // Labels that pull TEMPO and all of PLACE away from the built-in values: held, they stay.
    let built_in = *ply_boop::Eval::default().weights();
    let mut known = built_in;
    known.values_mut()[Weights::TEMPO] = 20;
    known.values_mut()[Weights::CAT] = 250;
    let samples = labelled_by(known, 1500, 1.0 / 300.0);
    let hold = vec!["TEMPO".to_string(), "PLACE".to_string()];
    let settings = TuneSettings { start: "default".into(), passes: 20, threads: 2, hold };
    let report =
        tune::<Boop>(&samples, &settings, &mut |_| {}, &AtomicBool::new(false)).expect("fits");
    let fitted = Weights::read(&report.weights).expect("a weights file");
    assert_eq!(fitted[Weights::TEMPO], built_in[Weights::TEMPO]);
    assert_eq!(fitted.values()[Weights::PLACE], built_in.values()[Weights::PLACE]);
    assert_eq!(fitted.values()[Weights::PLACE + 1], built_in.values()[Weights::PLACE + 1]);
    assert_ne!(fitted[Weights::CAT], built_in[Weights::CAT], "what is not held is fitted");
    assert!(
        report.changes.iter().all(|(name, _, _)| name != "TEMPO" && !name.starts_with("PLACE"))
    );
    // One value of a group by its report name; a name that is no tuned value is refused.
    let hold = vec!["PLACE[1]".to_string()];
    let settings = TuneSettings { start: "default".into(), passes: 0, threads: 1, hold };
    let report = tune::<Boop>(&samples, &settings, &mut |_| {}, &AtomicBool::new(false)).unwrap();
    assert!(report.changes.iter().any(|(name, _, _)| name == "PLACE[0]"));
    assert!(!report.changes.iter().any(|(name, _, _)| name == "PLACE[1]"));
    for bad in ["TEMP", "CAT_LINE", "PLACE[2]"] {
        let hold = vec![bad.to_string()];
        let settings = TuneSettings { start: "default".into(), passes: 0, threads: 1, hold };
        let e =
            tune::<Boop>(&samples, &settings, &mut |_| {}, &AtomicBool::new(false)).unwrap_err();
        assert!(matches!(&e, TuneError::Hold { name, .. } if name == bad), "{e:?}");
        assert!(e.to_string().starts_with(&format!("--hold {bad}: no tuned value")), "{e}");
        // Settings are checked before samples: with none, the same error, not NoPositions.
        let e = tune::<Boop>(&[], &settings, &mut |_| {}, &AtomicBool::new(false)).unwrap_err();
        assert!(matches!(e, TuneError::Hold { .. }), "{e:?}");
    }
    let sound = TuneSettings { start: "default".into(), passes: 0, threads: 1, hold: vec![] };
    let e = tune::<Boop>(&[], &sound, &mut |_| {}, &AtomicBool::new(false)).unwrap_err();
    assert_eq!(e, TuneError::NoPositions);
}

#[test]
fn the_fitted_k_is_the_value_scale_of_the_labels() {
    // Labels made with the expected score analysis reports, 50 + 50·tanh(e / value_scale),
    // are fitted by σ(K·e) with K = 2 / value_scale: the two are one curve, and the report
    // gives the evaluator's own scale beside it.
    let eval = ply_boop::Eval::default();
    let scale = eval.value_scale();
    let samples: Vec<Sample> = random_positions(2000)
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let e = ply_search::Score(eval.evaluate(p));
            let expected = ply_search::analysis::Eval::of_score(e, scale).expected / 100.0;
            Sample { position: p.position_string(), game: i, result: expected }
        })
        .collect();
    let settings =
        TuneSettings { start: "default".into(), passes: 0, threads: 2, hold: Vec::new() };
    let report =
        tune::<Boop>(&samples, &settings, &mut |_| {}, &AtomicBool::new(false)).expect("fits");
    assert_eq!(report.value_scale, scale);
    let fitted = 2.0 / report.k;
    assert!((fitted / f64::from(scale) - 1.0).abs() < 0.01, "2/K = {fitted}, value scale {scale}");
}

#[test]
fn a_sample_of_another_game_is_refused() {
    let samples = [Sample { position: "gipf;nonsense".into(), game: 0, result: 1.0 }];
    let settings =
        TuneSettings { start: "default".into(), passes: 1, threads: 1, hold: Vec::new() };
    let e = tune::<Boop>(&samples, &settings, &mut |_| {}, &AtomicBool::new(false)).unwrap_err();
    assert!(matches!(e, TuneError::Sample { number: 1, .. }), "{e:?}");
    assert!(e.to_string().starts_with("sample 1: "), "{e}");
    let settings =
        TuneSettings { start: "/no/such/weights".into(), passes: 1, threads: 1, hold: Vec::new() };
    let e = tune::<Boop>(&samples, &settings, &mut |_| {}, &AtomicBool::new(false)).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("neither a built-in weight set (default, hand) nor a readable file"),
        "{e}"
    );
}

#[test]
fn positions_with_a_compulsory_forcing_move_are_left_out() {
    // The search never evaluates a ZÈRTZ position with a jump (the jump is compulsory and is
    // searched), so the fit leaves such positions out and fits the quiet ones.
    let mut rng = Rng::new(11);
    let (mut samples, mut jumps) = (Vec::new(), 0);
    let mut moves = Vec::new();
    for game in 0..40 {
        let mut g = ply_zertz::Position::new("37").expect("a variant");
        while g.outcome().is_none() && samples.len() < 60 * (game + 1) {
            jumps += usize::from(g.has_jump());
            let result = if rng.below(2) == 0 { 1.0 } else { 0.0 };
            samples.push(Sample { position: g.position_string(), game, result });
            g.legal_moves(&mut moves);
            g.play(moves[rng.below(moves.len())]);
        }
    }
    let settings =
        TuneSettings { start: "default".into(), passes: 0, threads: 2, hold: Vec::new() };
    let report =
        tune::<ply_zertz::Position>(&samples, &settings, &mut |_| {}, &AtomicBool::new(false))
            .expect("fits");
    assert!(jumps > 50 && jumps < samples.len() - 50, "{jumps} of {} with a jump", samples.len());
    assert_eq!(report.forced, jumps);
    assert_eq!(report.skipped, 0);
    assert_eq!(report.training + report.held_out, samples.len() - jumps);
}
