package export

import (
	"fmt"

	"github.com/hookctl/hookctl/schema"
)

// Memory is what one run of export knows of what earlier exports created
// in a settings file: their record, or why there is none to go by.
type Memory struct {
	path, real string
	pathErr    error
	// Record is the record read by Load; nil when there is none.
	Record *Record
	// Unrecorded says why there is no record for a removal to go by.
	Unrecorded string
}

// Remember finds where the record of the settings file whose real path
// is real is kept (RecordPath), to Load it once the file is locked.
func Remember(getenv func(string) string, real string) *Memory {
	path, err := RecordPath(getenv, real)
	return &Memory{path: path, real: real, pathErr: err,
		Unrecorded: "no record of what export created in this file (was it exported on another machine?)"}
}

// Load reads the record. An export writes a new record over one it cannot
// read; Unrecorded says why it could not.
func (m *Memory) Load() {
	if m.pathErr != nil {
		m.Unrecorded = fmt.Sprintf("cannot find the record of what export created (%v)", m.pathErr)
		return
	}
	var err error
	if m.Record, err = LoadRecord(m.path, m.real); err != nil {
		m.Unrecorded = err.Error()
	}
}

// After keeps, once r is written, what export created in the settings
// file for a later removal (a), or forgets it after a removal.
func (m *Memory) After(a schema.Agent, removed bool, r *Result) error {
	if m.pathErr != nil {
		return m.pathErr
	}
	if removed {
		return DeleteRecord(m.path)
	}
	return NextRecord(a, m.Record, r, m.real).Save(m.path)
}
