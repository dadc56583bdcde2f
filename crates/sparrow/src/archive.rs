//! Reading the `.sparrow` model archive: a zip of `config.json`, `tokenizer.json` and
//! `model.npz` (itself a zip of `.npy` arrays).

use crate::SparrowError;
use crate::npy::{NpyArray, parse_npy};
use serde::Deserialize;
use std::collections::HashMap;
use std::io::{Cursor, Read};

/// The fields of `config.json` this port reads (others are ignored).
#[derive(Debug, Clone, Deserialize)]
pub struct ModelConfig {
    /// Must be `"static"` (or `"pico"`, the package's alias for the same path).
    pub arch: String,
    /// The model id, e.g. `sparrow-nano-general-v1.1`.
    pub name: String,
    /// Key-value number features; must be false for this port (nano-general has them off).
    #[serde(default)]
    pub kv: bool,
    /// Embedding width (128).
    pub dim: usize,
    /// MLP hidden width (128).
    pub hidden: usize,
    /// Number of vocabulary rows (16,384).
    pub vocab_size: usize,
    /// Token cap per pooled text (512).
    #[serde(default = "default_max_len")]
    pub max_len: usize,
    /// Softmax temperature per question kind; a missing kind means 1.0.
    #[serde(default)]
    pub temperature_by_kind: HashMap<String, f64>,
}

fn default_max_len() -> usize {
    512
}

/// Everything inside one `.sparrow` file, parsed but not yet checked for shapes.
pub struct ModelFiles {
    /// Parsed `config.json`.
    pub config: ModelConfig,
    /// `tokenizer.json`'s `vocab`: token → id.
    pub vocab: HashMap<String, u32>,
    /// `model.npz`'s arrays keyed by member name without `.npy` (e.g. `emb.weight.q8`).
    pub arrays: HashMap<String, NpyArray>,
}

/// Reads and parses the three members of a `.sparrow` zip; `archive` names it in errors.
pub fn read_model_files(archive: &str, bytes: &[u8]) -> Result<ModelFiles, SparrowError> {
    let config_bytes = read_member(archive, bytes, "config.json")?;
    let config: ModelConfig =
        serde_json::from_slice(&config_bytes).map_err(|e| SparrowError::Config {
            file: "config.json".into(),
            message: e.to_string(),
        })?;
    let tokenizer_bytes = read_member(archive, bytes, "tokenizer.json")?;
    #[derive(Deserialize)]
    struct TokenizerFile {
        vocab: HashMap<String, u32>,
    }
    let tokenizer: TokenizerFile =
        serde_json::from_slice(&tokenizer_bytes).map_err(|e| SparrowError::Config {
            file: "tokenizer.json".into(),
            message: format!("expected {{\"vocab\": {{token: id}}}}: {e}"),
        })?;
    let npz = read_member(archive, bytes, "model.npz")?;
    let mut arrays = HashMap::new();
    for (name, member) in read_all_members("model.npz", &npz)? {
        let Some(key) = name.strip_suffix(".npy") else {
            return Err(SparrowError::Archive {
                archive: "model.npz".into(),
                message: format!("member `{name}` is not a .npy file"),
            });
        };
        arrays.insert(key.to_owned(), parse_npy(&name, &member)?);
    }
    Ok(ModelFiles {
        config,
        vocab: tokenizer.vocab,
        arrays,
    })
}

fn open<'a>(
    archive: &str,
    bytes: &'a [u8],
) -> Result<zip::ZipArchive<Cursor<&'a [u8]>>, SparrowError> {
    zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| SparrowError::Archive {
        archive: archive.to_owned(),
        message: format!("not a readable zip: {e}"),
    })
}

/// The decompressed bytes of one member of a zip held in memory.
pub fn read_member(archive: &str, bytes: &[u8], member: &str) -> Result<Vec<u8>, SparrowError> {
    let fail = |message: String| SparrowError::Archive {
        archive: archive.to_owned(),
        message,
    };
    let mut zip = open(archive, bytes)?;
    let mut file = zip
        .by_name(member)
        .map_err(|e| fail(format!("member `{member}`: {e}")))?;
    let mut out = Vec::new();
    file.read_to_end(&mut out)
        .map_err(|e| fail(format!("member `{member}` cannot be decompressed: {e}")))?;
    Ok(out)
}

/// Every member of a zip held in memory, as (name, decompressed bytes), in archive order.
pub fn read_all_members(
    archive: &str,
    bytes: &[u8],
) -> Result<Vec<(String, Vec<u8>)>, SparrowError> {
    let mut zip = open(archive, bytes)?;
    let mut out = Vec::with_capacity(zip.len());
    for index in 0..zip.len() {
        let mut file = zip.by_index(index).map_err(|e| SparrowError::Archive {
            archive: archive.to_owned(),
            message: format!("member #{index}: {e}"),
        })?;
        let name = file
            .name()
            .map_err(|e| SparrowError::Archive {
                archive: archive.to_owned(),
                message: format!("member #{index} has an unreadable name: {e}"),
            })?
            .into_owned();
        let mut data = Vec::new();
        file.read_to_end(&mut data)
            .map_err(|e| SparrowError::Archive {
                archive: archive.to_owned(),
                message: format!("member `{name}` cannot be decompressed: {e}"),
            })?;
        out.push((name, data));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_an_archive_error() {
        let err = read_model_files("x.sparrow", b"not a zip")
            .err()
            .map(|e| e.to_string());
        assert!(
            err.unwrap_or_default()
                .starts_with("model archive `x.sparrow`: not a readable zip")
        );
    }
}
