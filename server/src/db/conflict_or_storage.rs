//! How a domain error takes a storage failure: a unique-key violation means a concurrent
//! request inserted the same row first (`Conflict`, worth a retry), anything else is `Storage`.

/// Implements `From<DbError>` and `From<diesel::result::Error>` for a domain error enum that
/// has a `Conflict` variant and a `Storage(DbError)` variant, so `?` sorts a failed query into
/// one of them.
macro_rules! conflict_or_storage {
    ($error:ty) => {
        impl From<$crate::db::DbError> for $error {
            fn from(error: $crate::db::DbError) -> Self {
                if error.is_unique_violation() {
                    Self::Conflict
                } else {
                    Self::Storage(error)
                }
            }
        }

        impl From<diesel::result::Error> for $error {
            fn from(error: diesel::result::Error) -> Self {
                $crate::db::DbError::Query(error).into()
            }
        }
    };
}

pub(crate) use conflict_or_storage;
