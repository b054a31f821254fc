//! Element types of tensors, with TensorFlow's names and NumPy's spellings.

use std::fmt;

/// The element type of a tensor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    /// `tf.bool`
    Bool,
    /// `tf.int32` (Python ints in a literal)
    Int32,
    /// `tf.int64` (row partitions, NumPy ints)
    Int64,
    /// `tf.float32` (Python floats in a literal)
    Float32,
    /// `tf.float64` (NumPy floats, int / int)
    Float64,
    /// `tf.string`: byte strings
    String,
}

impl DType {
    /// Every dtype, in a stable order.
    pub const ALL: [DType; 6] = [
        DType::Bool,
        DType::Int32,
        DType::Int64,
        DType::Float32,
        DType::Float64,
        DType::String,
    ];

    /// TensorFlow's name (`int32`, `string`, …).
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::Int32 => "int32",
            DType::Int64 => "int64",
            DType::Float32 => "float32",
            DType::Float64 => "float64",
            DType::String => "string",
        }
    }

    /// Parses TensorFlow and NumPy spellings (`int32`, `tf.int32`, `np.float64`, `str`, `float`).
    pub fn parse(name: &str) -> Option<DType> {
        let name = name
            .trim_start_matches("tf.")
            .trim_start_matches("np.")
            .trim_start_matches("numpy.");
        Some(match name {
            "bool" => DType::Bool,
            "int32" => DType::Int32,
            "int64" | "int" => DType::Int64,
            "float32" => DType::Float32,
            "float64" | "float" | "double" => DType::Float64,
            "string" | "str" | "object" | "bytes" => DType::String,
            _ => return None,
        })
    }

    /// The bytes one element takes in a buffer (for strings: its offset, without its bytes).
    pub fn item_bytes(self) -> usize {
        crate::dispatch!(elements dtype self, T => std::mem::size_of::<T>(),
            // A string's offset; its bytes are counted separately.
            DType::String => std::mem::size_of::<usize>())
    }
    /// True for the integer types.
    pub const fn is_int(self) -> bool {
        matches!(self, DType::Int32 | DType::Int64)
    }
    /// True for the floating-point types.
    pub const fn is_float(self) -> bool {
        matches!(self, DType::Float32 | DType::Float64)
    }
    /// True for ints and floats.
    pub const fn is_numeric(self) -> bool {
        self.is_int() || self.is_float()
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
