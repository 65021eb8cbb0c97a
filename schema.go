// Package replaylab is the root of the module. It holds only what must live
// at the root: the SQLite schema, embedded here because go:embed cannot
// reach a file above the embedding package's directory.
package replaylab

import _ "embed"

// Schema is the SQL text of schema.sql: the tables and indexes of a
// version-1 database. Package store applies it to a fresh database; it is
// exported so that tools and tests read the one schema instead of a copy.
//
//go:embed schema.sql
var Schema string

// SchemaPostgres is the SQL text of schema_postgres.sql: the same schema
// for PostgreSQL, at the version this build writes. Package store applies
// it to a fresh PostgreSQL database.
//
//go:embed schema_postgres.sql
var SchemaPostgres string
