//! Decoding the domain's typed ids from nullable columns. A non-null id column decodes with
//! `#[sqlx(try_from = "i64")]` directly; a nullable one with `#[sqlx(try_from = "NullableId")]`,
//! which reads an `Option<i64>` and converts into `Option<SomeId>` (the domain knows no sqlx).

use sqlx::error::BoxDynError;
use sqlx::{Database, Decode, Type};

/// A nullable id column as read, before it becomes `Option<SomeId>`.
pub(crate) struct NullableId(Option<i64>);

impl<DB: Database> Type<DB> for NullableId
where
    i64: Type<DB>,
{
    fn type_info() -> DB::TypeInfo {
        <i64 as Type<DB>>::type_info()
    }

    fn compatible(ty: &DB::TypeInfo) -> bool {
        <i64 as Type<DB>>::compatible(ty)
    }
}

impl<'r, DB: Database> Decode<'r, DB> for NullableId
where
    Option<i64>: Decode<'r, DB>,
{
    fn decode(value: <DB as Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(NullableId(<Option<i64> as Decode<'r, DB>>::decode(value)?))
    }
}

impl<T: From<i64>> From<NullableId> for Option<T> {
    fn from(id: NullableId) -> Option<T> {
        id.0.map(T::from)
    }
}
