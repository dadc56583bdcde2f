//! The static-embedding scorer of `sparrow_decider.static.StaticModel` (with `kv` off).
//!
//! For one question: the state `s`, the instructions `q` (plus the learned vector of the
//! question kind) and each option `o_k` ("name description") are mean-pooled from the int8
//! embedding table (row scale applied) and L2-normalised. With `ō` the mean of the `o_k`, each
//! option's 768 inputs are `[o, s∘o, q∘o, s∘q∘o, o−ō, (s−ō)∘o]`; an MLP 768→128→128→1 with
//! GELU gives one logit per option; logits are divided by the kind's temperature and
//! soft-maxed.

use crate::SparrowError;
use crate::archive::ModelFiles;
use crate::kernels::{gelu, l2_normalize, mat_vec, softmax_in_place};
use crate::npy::{NpyArray, NpyData};
use std::collections::HashMap;

/// The three question kinds, in the row order of the `kind.weight` table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Yes/no, answered with P(true).
    Noul = 0,
    /// One of N labels.
    Choice = 1,
    /// An ordered rubric of 2..=10 levels.
    Score = 2,
}

impl Kind {
    /// The wire name: `noul`, `choice` or `score`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Noul => "noul",
            Kind::Choice => "choice",
            Kind::Score => "score",
        }
    }
}

/// Number of 128-wide feature blocks per option.
const BLOCKS: usize = 6;

/// Dequantised weights of the static model.
#[derive(Debug, Clone)]
pub struct StaticModel {
    dim: usize,
    hidden: usize,
    emb_q: Vec<i8>,
    emb_scale: Vec<f32>,
    kinds: Vec<f32>,
    w0: Vec<f32>,
    b0: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    w4: Vec<f32>,
    b4: f32,
    temperatures: [f32; 3],
}

impl StaticModel {
    /// Checks every array's dtype and shape against `config.json` and dequantises the MLP.
    pub fn from_files(files: &ModelFiles) -> Result<StaticModel, SparrowError> {
        let cfg = &files.config;
        let config_err = |message: String| SparrowError::Config {
            file: "config.json".into(),
            message,
        };
        if cfg.arch != "static" && cfg.arch != "pico" {
            return Err(config_err(format!(
                "arch {:?} is not the static model",
                cfg.arch
            )));
        }
        if cfg.kv {
            return Err(config_err(
                "kv=true (number features) is not implemented".into(),
            ));
        }
        let (d, h, v) = (cfg.dim, cfg.hidden, cfg.vocab_size);
        let a = &files.arrays;
        let (emb_q, emb_scale) = (
            int8(a, "emb.weight.q8", &[v, d])?,
            float(a, "emb.weight.scale", &[v])?,
        );
        let kinds = dequant(
            int8(a, "kind.weight.q8", &[3, d])?,
            &float(a, "kind.weight.scale", &[3])?,
        );
        let w0 = dequant(
            int8(a, "mlp.0.weight.q8", &[h, BLOCKS * d])?,
            &float(a, "mlp.0.weight.scale", &[h])?,
        );
        let w2 = dequant(
            int8(a, "mlp.2.weight.q8", &[h, h])?,
            &float(a, "mlp.2.weight.scale", &[h])?,
        );
        let w4 = dequant(
            int8(a, "mlp.4.weight.q8", &[1, h])?,
            &float(a, "mlp.4.weight.scale", &[1])?,
        );
        let t = |k: &str| cfg.temperature_by_kind.get(k).copied().unwrap_or(1.0) as f32;
        Ok(StaticModel {
            dim: d,
            hidden: h,
            emb_q,
            emb_scale,
            kinds,
            w0,
            b0: float(a, "mlp.0.bias", &[h])?,
            w2,
            b2: float(a, "mlp.2.bias", &[h])?,
            w4,
            b4: float(a, "mlp.4.bias", &[1])?[0],
            temperatures: [t("noul"), t("choice"), t("score")],
        })
    }

    /// Number of vocabulary rows.
    pub fn vocab_size(&self) -> usize {
        self.emb_scale.len()
    }

    /// Mean of the dequantised embedding rows of `ids` (row 0, `[PAD]`, when `ids` is empty),
    /// L2-normalised. Ids out of range are skipped (the tokenizer never produces them).
    pub fn pooled(&self, ids: &[u32]) -> Vec<f32> {
        let d = self.dim;
        let mut acc = vec![0.0f32; d];
        let pad = [0u32];
        let ids = if ids.is_empty() { &pad[..] } else { ids };
        let mut n = 0usize;
        for &id in ids {
            let row = id as usize;
            let (Some(q), Some(&scale)) = (
                self.emb_q.get(row * d..(row + 1) * d),
                self.emb_scale.get(row),
            ) else {
                continue;
            };
            for (a, &x) in acc.iter_mut().zip(q) {
                *a += f32::from(x) * scale;
            }
            n += 1;
        }
        let count = n.max(1) as f32;
        acc.iter_mut().for_each(|a| *a /= count);
        acc
    }

    /// Like [`StaticModel::pooled`], then L2-normalised.
    pub fn pooled_unit(&self, ids: &[u32]) -> Vec<f32> {
        let mut v = self.pooled(ids);
        l2_normalize(&mut v);
        v
    }

    /// The instructions vector: `normalize(pool(instructions) + kind row)`.
    pub fn question_vector(&self, instruction_ids: &[u32], kind: Kind) -> Vec<f32> {
        let mut q = self.pooled(instruction_ids);
        let row = &self.kinds[kind as usize * self.dim..(kind as usize + 1) * self.dim];
        q.iter_mut().zip(row).for_each(|(a, b)| *a += b);
        l2_normalize(&mut q);
        q
    }

    /// Softmax probabilities over options, given unit vectors `s` (state), `q` (from
    /// [`StaticModel::question_vector`]) and one unit vector per option, all of the model's
    /// width. A vector of another width (not produced by this model) gives the uniform
    /// distribution instead of a panic.
    pub fn probabilities(
        &self,
        s: &[f32],
        q: &[f32],
        options: &[Vec<f32>],
        kind: Kind,
    ) -> Vec<f32> {
        let d = self.dim;
        let (Some(s), Some(q)) = (s.get(..d), q.get(..d)) else {
            return uniform(options.len());
        };
        if options.iter().any(|o| o.len() != d) {
            return uniform(options.len());
        }
        let k = options.len().max(1) as f32;
        let mut mean = vec![0.0f32; d];
        for o in options {
            mean.iter_mut().zip(o).for_each(|(m, x)| *m += x);
        }
        mean.iter_mut().for_each(|m| *m /= k);
        // The first layer is linear in o for a fixed question: with c = [1, s, q, s∘q, 1, s−ō],
        // W0·[o, s∘o, q∘o, s∘q∘o, o−ō, (s−ō)∘o] = (Σ_b W0_b·diag(c_b))·o − W0_4·ō.
        // Folding the six blocks once per question makes each option cost 128×128, not
        // 128×768; the sums are the same up to float rounding (parity-tested).
        let sq: Vec<f32> = s.iter().zip(q).map(|(a, b)| a * b).collect();
        let sm: Vec<f32> = s.iter().zip(&mean).map(|(a, b)| a - b).collect();
        let mut folded = vec![0.0f32; self.hidden * d];
        let mut bias = self.b0.clone();
        for ((row, out), b) in self
            .w0
            .chunks_exact(BLOCKS * d)
            .zip(folded.chunks_exact_mut(d))
            .zip(&mut bias)
        {
            let (w_o, rest) = row.split_at(d);
            let (w_s, rest) = rest.split_at(d);
            let (w_q, rest) = rest.split_at(d);
            let (w_sq, rest) = rest.split_at(d);
            let (w_c, w_sm) = rest.split_at(d);
            // Exact-length slices let the compiler drop bounds checks and vectorise.
            let (out, w_sm, sq, sm, mean) =
                (&mut out[..d], &w_sm[..d], &sq[..d], &sm[..d], &mean[..d]);
            for j in 0..d {
                out[j] = w_o[j]
                    + w_s[j] * s[j]
                    + w_q[j] * q[j]
                    + w_sq[j] * sq[j]
                    + w_c[j]
                    + w_sm[j] * sm[j];
            }
            *b -= crate::kernels::dot(w_c, mean);
        }
        let mut h1 = vec![0.0f32; self.hidden];
        let mut h2 = vec![0.0f32; self.hidden];
        let t = self.temperatures[kind as usize];
        let mut logits: Vec<f32> = options
            .iter()
            .map(|o| {
                mat_vec(&folded, &bias, o, &mut h1);
                h1.iter_mut().for_each(|x| *x = gelu(*x));
                mat_vec(&self.w2, &self.b2, &h1, &mut h2);
                h2.iter_mut().for_each(|x| *x = gelu(*x));
                let mut out = [0.0f32];
                mat_vec(&self.w4, &[self.b4], &h2, &mut out);
                out[0] / t
            })
            .collect();
        softmax_in_place(&mut logits);
        logits
    }
}

fn uniform(n: usize) -> Vec<f32> {
    vec![1.0 / n.max(1) as f32; n]
}

fn find<'a>(
    arrays: &'a HashMap<String, NpyArray>,
    name: &str,
    shape: &[usize],
) -> Result<&'a NpyArray, SparrowError> {
    let array = arrays.get(name).ok_or_else(|| SparrowError::Npy {
        name: format!("{name}.npy"),
        message: "missing from model.npz".into(),
    })?;
    if array.shape != shape {
        return Err(SparrowError::Npy {
            name: format!("{name}.npy"),
            message: format!(
                "shape {:?}, expected {shape:?} from config.json",
                array.shape
            ),
        });
    }
    Ok(array)
}

fn int8(
    arrays: &HashMap<String, NpyArray>,
    name: &str,
    shape: &[usize],
) -> Result<Vec<i8>, SparrowError> {
    match &find(arrays, name, shape)?.data {
        NpyData::I8(v) => Ok(v.clone()),
        NpyData::F32(_) => Err(SparrowError::Npy {
            name: format!("{name}.npy"),
            message: "dtype float32, expected int8".into(),
        }),
    }
}

fn float(
    arrays: &HashMap<String, NpyArray>,
    name: &str,
    shape: &[usize],
) -> Result<Vec<f32>, SparrowError> {
    match &find(arrays, name, shape)?.data {
        NpyData::F32(v) => Ok(v.clone()),
        NpyData::I8(_) => Err(SparrowError::Npy {
            name: format!("{name}.npy"),
            message: "dtype int8, expected float32".into(),
        }),
    }
}

/// Row-wise dequantisation `q[r][c] · scale[r]`, in f32 like the package's `_dequant`.
fn dequant(q: Vec<i8>, scale: &[f32]) -> Vec<f32> {
    let cols = q.len() / scale.len().max(1);
    q.chunks_exact(cols.max(1))
        .zip(scale)
        .flat_map(|(row, &s)| row.iter().map(move |&x| f32::from(x) * s))
        .collect()
}
