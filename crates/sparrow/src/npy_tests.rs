use super::*;

/// Builds a version-1 `.npy` file with `header` padded to a 64-byte boundary, as NumPy does.
fn npy(header: &str, body: &[u8]) -> Vec<u8> {
    let mut padded = header.to_owned();
    while !(10 + padded.len() + 1).is_multiple_of(64) {
        padded.push(' ');
    }
    padded.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(padded.len() as u16).to_le_bytes());
    out.extend_from_slice(padded.as_bytes());
    out.extend_from_slice(body);
    out
}

fn err(bytes: &[u8]) -> String {
    match parse_npy("t.npy", bytes) {
        Ok(a) => panic!("expected an error, parsed {a:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn reads_int8_matrix() {
    let file = npy(
        "{'descr': '|i1', 'fortran_order': False, 'shape': (2, 3), }",
        &[1, 255, 3, 128, 0, 127],
    );
    let a = parse_npy("t.npy", &file).unwrap();
    assert_eq!(a.shape, vec![2, 3]);
    assert_eq!(a.data, NpyData::I8(vec![1, -1, 3, -128, 0, 127]));
}

#[test]
fn reads_f32_vector_any_key_order_and_version_2() {
    let header = "{'shape': (2,), 'fortran_order': False, 'descr': '<f4'}\n";
    let mut file = b"\x93NUMPY\x02\x00".to_vec();
    file.extend_from_slice(&(header.len() as u32).to_le_bytes());
    file.extend_from_slice(header.as_bytes());
    file.extend_from_slice(&0.25f32.to_le_bytes());
    file.extend_from_slice(&(-3.0f32).to_le_bytes());
    let a = parse_npy("t.npy", &file).unwrap();
    assert_eq!(a.data, NpyData::F32(vec![0.25, -3.0]));
}

#[test]
fn scalar_shape_has_one_element() {
    let file = npy(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (), }",
        &7f32.to_le_bytes(),
    );
    let a = parse_npy("t.npy", &file).unwrap();
    assert_eq!(a.shape, Vec::<usize>::new());
    assert_eq!(a.data, NpyData::F32(vec![7.0]));
}

#[test]
fn rejects_bad_magic() {
    assert!(err(b"\x93NUMPZ\x01\x00\x00\x00").contains("magic"));
    assert!(err(b"short").contains("magic"));
}

#[test]
fn rejects_unknown_version() {
    assert!(err(b"\x93NUMPY\x07\x00\x00\x00").contains("version 7"));
}

#[test]
fn rejects_header_past_end() {
    assert!(err(b"\x93NUMPY\x01\x00\xff\x00{}").contains("runs past the end"));
}

#[test]
fn rejects_float64() {
    let file = npy(
        "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }",
        &[0; 8],
    );
    assert!(err(&file).contains("dtype \"<f8\" is not supported"));
}

#[test]
fn rejects_fortran_order() {
    let file = npy(
        "{'descr': '|i1', 'fortran_order': True, 'shape': (1, 1), }",
        &[0],
    );
    assert!(err(&file).contains("fortran_order is True"));
}

#[test]
fn rejects_wrong_data_length() {
    let file = npy(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }",
        &[0; 12],
    );
    assert!(err(&file).contains("data has 12 bytes, the shape needs 4 × 4 = 16"));
}

#[test]
fn rejects_missing_and_unknown_keys() {
    let file = npy("{'descr': '|i1', 'shape': (1,), }", &[0]);
    assert!(err(&file).contains("missing 'fortran_order'"));
    let file = npy(
        "{'descr': '|i1', 'fortran_order': False, 'shape': (1,), 'x': 1}",
        &[0],
    );
    assert!(err(&file).contains("unexpected key \"x\""));
}

#[test]
fn rejects_malformed_shape() {
    let file = npy(
        "{'descr': '|i1', 'fortran_order': False, 'shape': (a,), }",
        &[0],
    );
    assert!(err(&file).contains("expected a dimension"));
    let file = npy(
        "{'descr': '|i1', 'fortran_order': False, 'shape': (1, 2 }",
        &[0, 0],
    );
    assert!(err(&file).contains("expected ')'"));
}
