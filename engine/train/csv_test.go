package train

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

// stdCSV reads text with encoding/csv set up as ReadCSV once set it up: its
// records with each one's line and field columns, or its error as
// csvReader words it.
func stdCSV(text string) (records []string, err error) {
	cr := csv.NewReader(strings.NewReader(text))
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return records, nil
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return records, fmt.Errorf("line %d, column %d: %v", pe.Line, pe.Column, pe.Err)
		}
		if err != nil {
			return records, err
		}
		line, _ := cr.FieldPos(0)
		cols := make([]int, len(rec))
		for j := range rec {
			_, cols[j] = cr.FieldPos(j)
		}
		records = append(records, fmt.Sprintf("%d %q %v", line, rec, cols))
	}
}

// ownCSV reads text with csvReader, in stdCSV's terms.
func ownCSV(text string) (records []string, err error) {
	r := csvReader{text: []byte(text), line: 1}
	for {
		more, err := r.next()
		if err != nil || !more {
			return records, err
		}
		records = append(records, fmt.Sprintf("%d %q %v", r.recLine, r.fields, r.cols))
	}
}

var csvTexts = []string{
	"", "\n", "1,2\n3,4\n", "1,2\r\n3,4\r\n", "1,2\n\n\n3,4", " 1,\t2 , 3\n", "a,b,label\n1,2,0\n",
	`1,"2",3` + "\n", `"a ""quoted"" field",1`, "\"two\nlines\",5\n6,7\n", "1,,3\n,\n", "1,2,\n",
	`1,2"x`, `1,"2"x,3`, "0,\"0\n", `"unclosed`, "1,2\r3,4\n", "1,2\r",
}

// TestCSVReader proves csvReader splits text as encoding/csv does: the same
// fields, lines and columns, and the same quote errors at the same places.
func TestCSVReader(t *testing.T) {
	for _, text := range csvTexts {
		want, wantErr := stdCSV(text)
		got, err := ownCSV(text)
		if !slices.Equal(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("%q:\n got %q, %v\nwant %q, %v", text, got, err, want, wantErr)
		}
	}
}

func FuzzCSVReader(f *testing.F) {
	for _, text := range csvTexts {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		want, wantErr := stdCSV(text)
		got, err := ownCSV(text)
		if !slices.Equal(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("%q:\n got %q, %v\nwant %q, %v", text, got, err, want, wantErr)
		}
	})
}
