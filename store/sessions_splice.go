package store

import (
	"errors"

	"clawvault-tui/store/jsonscan"
)

// SpliceOutRows returns sessions.json without the rows whose keys are in
// remove, every other byte as it was: the kept rows keep their formatting,
// order and separators, so a store JSON.stringify wrote stays exactly what
// JSON.stringify writes for the kept rows. Duplicate keys all go (JSON.parse
// reads only the last, but none should survive its removal). It also
// reports how many members it removed.
func SpliceOutRows(data []byte, remove map[string]bool) ([]byte, int, error) {
	type member struct{ start, end int } // key start, value end
	var members []member
	var keep []bool
	base := cap(data)
	end, ok := jsonscan.Object(data, 0, func(key, value []byte) bool {
		// key and value are sub-slices of data: their offsets follow from
		// their capacities.
		members = append(members, member{base - cap(key), base - cap(value) + len(value)})
		keep = append(keep, !remove[jsonscan.Unquote(key)])
		return true
	})
	if !ok || jsonscan.SkipWS(data, end) != len(data) {
		return nil, 0, errors.New("sessions.json is not one JSON object")
	}
	removed := 0
	for _, k := range keep {
		if !k {
			removed++
		}
	}
	if removed == 0 {
		return data, 0, nil
	}
	if removed == len(members) {
		// JSON.stringify({}, null, 2) is "{}", whatever came after the object.
		return append([]byte("{}"), data[end:]...), removed, nil
	}
	// The bytes before the first member ("{\n  "), between members
	// (",\n  ") and after the last ("\n}") are reused: each kept member is
	// written after the separator that preceded the member it follows in
	// the output, so the layout of the first gap opens the object.
	out := make([]byte, 0, len(data))
	out = append(out, data[:members[0].start]...)
	first := true
	for i, m := range members {
		if !keep[i] {
			continue
		}
		if !first {
			// The separator before member i in the original; for a member
			// that was first, the one after it.
			sepFrom, sepTo := members[i-1].end, m.start
			out = append(out, data[sepFrom:sepTo]...)
		}
		out = append(out, data[m.start:m.end]...)
		first = false
	}
	out = append(out, data[members[len(members)-1].end:]...)
	return out, removed, nil
}
