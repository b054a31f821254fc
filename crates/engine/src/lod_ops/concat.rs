//! `sequence_concat`: sequence i of the output is sequence i of every input, one after
//! the other.

use super::{no_lod, offsets_of, output, with_rows};
use crate::buffer::Buffer;
use crate::error::Result;
use crate::exceptions::{Exception, ExceptionClass};
use crate::lod::Lod;
use crate::size::dense_shape_str;
use crate::tensor::Tensor;
use crate::value_error;

/// `sequence_concat([x1, x2, …])`: two or more inputs, each with one level with the same number of
/// sequences; output sequence i joins sequence i of each input in order, so its LoD adds
/// the inputs' offsets.
///
/// Paddle reads level 0 as row offsets even when an input has two levels, copying the
/// wrong rows and leaving others uninitialised; ragtag asks for one level instead.
pub fn sequence_concat(xs: &[&Lod]) -> Result<Lod> {
    let op = "sequence_concat";
    let Some(first) = xs.first() else {
        return Err(Exception::new(
            ExceptionClass::RuntimeError,
            format!("{op} got an empty list: it joins two or more LoDTensors"),
        ));
    };
    if xs.len() < 2 {
        return Err(value_error!(
            "{op} joins two or more LoDTensors, but got one: its sequences would come out unchanged"
        ));
    }
    for (i, x) in xs.iter().enumerate() {
        if x.lod().is_empty() {
            return Err(no_lod(
                &format!("{op}'s input {i}"),
                ExceptionClass::RuntimeError,
            ));
        }
    }
    let width = first.data().row_size();
    let dtype = first.data().dtype();
    for (i, x) in xs.iter().enumerate().skip(1) {
        if x.data().dtype() != dtype {
            return Err(value_error!(
                "{op}'s inputs must have one dtype, but input 0 is {} and input {i} is {}",
                dtype.name(),
                x.data().dtype().name()
            ));
        }
    }
    let nseq = first.lod()[0].len() - 1;
    for (i, x) in xs.iter().enumerate() {
        if x.data().row_size() != width {
            return Err(value_error!(
                "{op}'s inputs must have rows of one size, but input 0 has shape {} and input {i} has shape {}",
                dense_shape_str(first.data().shape()),
                dense_shape_str(x.data().shape())
            ));
        }
        let n = x.lod()[0].len() - 1;
        if n != nseq {
            return Err(value_error!(
                "{op} joins sequence i of every input, so they need the same number of sequences: input 0 has {nseq} and input {i} has {n}"
            ));
        }
        if x.lod().len() > 1 {
            return Err(value_error!(
                "{op} reads one level of sequences, but input {i} has {} (lod {}); Paddle would read its level 0 as row offsets",
                x.lod().len(),
                super::levels_str(x.lod())
            )
            .with_hint("lod_reset the input to one level of row offsets first"));
        }
    }
    let mut ranges = crate::budget::vec("sequence_concat's rows", nseq * xs.len())?;
    let mut lens = crate::budget::vec("sequence_concat's LoD", nseq)?;
    for i in 0..nseq {
        let mut total = 0usize;
        for x in xs {
            let level = &x.lod()[0];
            let (s, e) = (level[i] as usize, level[i + 1] as usize);
            ranges.push((s * width, e * width, x));
            total += e - s;
        }
        lens.push(total);
    }
    let rows: usize = lens.iter().sum();
    let mut out = Buffer::with_capacity("sequence_concat's output", dtype, rows * width, 0)?;
    for (s, e, x) in ranges {
        out.extend_range(x.data().data(), s, e);
    }
    output(
        Tensor::from_parts(with_rows(first.data().shape(), rows), out),
        vec![offsets_of(&lens)?],
    )
}
