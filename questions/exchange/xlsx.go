package exchange

import (
	"bytes"

	"github.com/xuri/excelize/v2"
)

// MaxUnzippedBytes bounds what an XLSX file may unpack to, so a small
// zip bomb cannot fill memory.
const MaxUnzippedBytes = 16 << 20

// XLSX reads the first sheet that has rows of an Excel workbook, with the
// columns CSV takes; a row's line in the report is its row number.
func XLSX(data []byte, opts Options) *Report {
	if len(data) > MaxImportBytes {
		return &Report{Items: []Item{{Where: opts.File, Reason: notep("too_large", "Size", len(data), "Max", MaxImportBytes)}}}
	}
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{UnzipSizeLimit: MaxUnzippedBytes, UnzipXMLSizeLimit: MaxUnzippedBytes})
	if err != nil {
		return &Report{Items: []Item{{Where: opts.File, Reason: notep("xlsx", "Error", err.Error())}}}
	}
	defer f.Close()
	for _, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet)
		if err != nil {
			return &Report{Items: []Item{{Where: opts.File, Reason: notep("xlsx", "Error", err.Error())}}}
		}
		if len(rows) == 0 {
			continue
		}
		lines := make([]int, len(rows))
		for i := range rows {
			lines[i] = i + 1
		}
		return Rows(rows, lines, opts)
	}
	return &Report{Items: []Item{{Where: opts.File, Reason: notep("xlsx_empty")}}}
}
