// Package csvexport writes the CSV exports: UTF-8 with a byte order mark
// for spreadsheets, every cell defused against formula injection.
package csvexport

import (
	"encoding/csv"
	"io"
)

// csvBOM starts every CSV export so spreadsheets read it as UTF-8 and show
// Thai and Vietnamese as written.
const csvBOM = "\uFEFF"

// Writer writes the exports' CSV: a byte order mark, a header, then rows
// whose every cell is defused with EscapeCell.
type Writer struct {
	cw *csv.Writer
}

// NewWriter writes the byte order mark and the header to w.
func NewWriter(w io.Writer, header []string) (*Writer, error) {
	if _, err := io.WriteString(w, csvBOM); err != nil {
		return nil, err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return nil, err
	}
	return &Writer{cw: cw}, nil
}

// Write escapes each cell of row in place and writes it.
func (w *Writer) Write(row []string) error {
	for i := range row {
		row[i] = EscapeCell(row[i])
	}
	return w.cw.Write(row)
}

// Flush writes what is buffered and reports the first write error.
func (w *Writer) Flush() error {
	w.cw.Flush()
	return w.cw.Error()
}

// EscapeCell keeps a spreadsheet from running a cell as a formula: text
// starting with = + - @ (or a tab or carriage return, which some
// spreadsheets skip first) gets a leading apostrophe, which shows as text
// (OWASP's advice for CSV injection).
func EscapeCell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}
