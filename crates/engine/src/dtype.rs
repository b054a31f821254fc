//! Element types of tensors, with TensorFlow's names and NumPy's spellings.

use std::fmt;

/// The element type of a tensor: TensorFlow's fourteen real dtypes but the complex ones
/// (`tf.string` holds bytes). The order is TensorFlow's listing of the kinds: bool, the
/// signed ints, the unsigned ints, the floats, string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    /// `tf.bool`
    Bool,
    /// `tf.int8`
    Int8,
    /// `tf.int16`
    Int16,
    /// `tf.int32` (Python ints in a literal)
    Int32,
    /// `tf.int64` (row partitions, NumPy ints)
    Int64,
    /// `tf.uint8` (images, bytes)
    UInt8,
    /// `tf.uint16`
    UInt16,
    /// `tf.uint32`
    UInt32,
    /// `tf.uint64`
    UInt64,
    /// `tf.float16`: IEEE half precision
    Float16,
    /// `tf.bfloat16`: brain float, float32's exponent with 8 bits of precision
    BFloat16,
    /// `tf.float32` (Python floats in a literal)
    Float32,
    /// `tf.float64` (NumPy floats, int / int)
    Float64,
    /// `tf.string`: byte strings
    String,
}

impl DType {
    /// Every dtype, in a stable order.
    pub const ALL: [DType; 14] = [
        DType::Bool,
        DType::Int8,
        DType::Int16,
        DType::Int32,
        DType::Int64,
        DType::UInt8,
        DType::UInt16,
        DType::UInt32,
        DType::UInt64,
        DType::Float16,
        DType::BFloat16,
        DType::Float32,
        DType::Float64,
        DType::String,
    ];

    /// TensorFlow's name (`int32`, `string`, …).
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::Int8 => "int8",
            DType::Int16 => "int16",
            DType::Int32 => "int32",
            DType::Int64 => "int64",
            DType::UInt8 => "uint8",
            DType::UInt16 => "uint16",
            DType::UInt32 => "uint32",
            DType::UInt64 => "uint64",
            DType::Float16 => "float16",
            DType::BFloat16 => "bfloat16",
            DType::Float32 => "float32",
            DType::Float64 => "float64",
            DType::String => "string",
        }
    }

    /// Parses TensorFlow and NumPy spellings (`int32`, `tf.int32`, `np.float64`, `str`, `float`,
    /// `half`, `double`).
    pub fn parse(name: &str) -> Option<DType> {
        let name = name
            .trim_start_matches("tf.")
            .trim_start_matches("np.")
            .trim_start_matches("numpy.");
        Some(match name {
            "bool" => DType::Bool,
            "int8" => DType::Int8,
            "int16" => DType::Int16,
            "int32" => DType::Int32,
            "int64" | "int" => DType::Int64,
            "uint8" => DType::UInt8,
            "uint16" => DType::UInt16,
            "uint32" => DType::UInt32,
            "uint64" => DType::UInt64,
            "float16" | "half" => DType::Float16,
            "bfloat16" => DType::BFloat16,
            "float32" => DType::Float32,
            "float64" | "float" | "double" => DType::Float64,
            "string" | "str" | "object" | "bytes" | "object_" | "bytes_" => DType::String,
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
        self.is_signed_int() || self.is_unsigned()
    }
    /// True for the signed integer types.
    pub const fn is_signed_int(self) -> bool {
        matches!(
            self,
            DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64
        )
    }
    /// True for the unsigned integer types.
    pub const fn is_unsigned(self) -> bool {
        matches!(
            self,
            DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64
        )
    }
    /// True for the floating-point types.
    pub const fn is_float(self) -> bool {
        matches!(
            self,
            DType::Float16 | DType::BFloat16 | DType::Float32 | DType::Float64
        )
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
