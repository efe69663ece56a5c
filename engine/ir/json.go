package ir

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"

	"tapelab/engine/jsontext"
	"tapelab/engine/tensor"
)

// Encode writes g as a tapelab.ir.v1 JSON document:
//
//	{"format": "tapelab.ir.v1",
//	 "nodes": [{"id": 0, "parents": [], "kind": "input", "out_shape": [4, 2]}, ...],
//	 "payload": {"1": {"weight": {"name": "0.weight", "shape": [3, 2], "data": [...]},
//	                   "bias": {...}}}}
//
// one node and one payload entry per line, payload in id order, attrs only
// where non-zero. Numbers are written so that they read back to the same
// float64 bits (-0 included); NaN and ±Inf have no JSON form, so a payload
// or attr holding one is an error naming the node.
func Encode(g *Graph) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"format": "` + Format + `",` + "\n" + ` "nodes": [`)
	for i := range g.Nodes {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  ")
		if err := encodeNode(&b, &g.Nodes[i]); err != nil {
			return nil, err
		}
	}
	b.WriteString("],\n" + ` "payload": {`)
	ids := make([]int, 0, len(g.Payload))
	for id := range g.Payload {
		ids = append(ids, id)
	}
	slices.SortStableFunc(ids, cmp.Compare[int]) // shares the playground's stable sort of []int
	for k, id := range ids {
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "\n  \"%d\": {", id)
		e := g.Payload[id]
		if e == nil {
			return nil, fmt.Errorf("payload %d: entry is empty", id)
		}
		sep := ""
		for _, r := range []struct {
			role string
			t    *Tensor
		}{{"value", e.Value}, {"weight", e.Weight}, {"bias", e.Bias}} {
			if r.t == nil {
				continue
			}
			b.WriteString(sep + `"` + r.role + `": `)
			sep = ", "
			if err := encodeTensor(&b, r.t); err != nil {
				return nil, fmt.Errorf("payload %d %s: %w", id, r.role, err)
			}
		}
		b.WriteByte('}')
	}
	b.WriteString("}}\n")
	return b.Bytes(), nil
}

func encodeNode(b *bytes.Buffer, n *Node) error {
	fmt.Fprintf(b, `{"id": %d, "parents": `, n.ID)
	writeInts(b, n.Parents)
	b.WriteString(`, "kind": ` + jsonString(n.Kind) + `, "out_shape": `)
	writeInts(b, n.OutShape)
	parts, err := attrParts(n.Attrs)
	if err != nil {
		return nodeError(n, "%v", err)
	}
	if len(parts) > 0 {
		b.WriteString(`, "attrs": {`)
		for i, p := range parts {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(p)
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return nil
}

func encodeTensor(b *bytes.Buffer, t *Tensor) error {
	b.WriteByte('{')
	if t.Name != "" {
		b.WriteString(`"name": ` + jsonString(t.Name) + ", ")
	}
	b.WriteString(`"shape": `)
	writeInts(b, t.Shape)
	b.WriteString(`, "data": [`)
	for i, v := range t.Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("data[%d] is %v, which has no JSON form", i, v)
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(formatFloat(v))
	}
	b.WriteString("]}")
	return nil
}

// jsonString quotes s as a JSON string (strconv.Quote is not JSON: it
// writes \a, \x00 and \U escapes).
func jsonString(s string) string { return string(jsontext.AppendString(nil, s)) }

// formatFloat writes v in the shortest form that parses back to the same
// bits (jsontext.AppendFloat: strconv 'g', precision -1); -0 stays -0.
func formatFloat(v float64) string {
	b, _ := jsontext.AppendFloat(nil, v) // Encode rejects NaN and infinities first
	return string(b)
}

func writeInts(b *bytes.Buffer, xs []int) {
	b.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(x))
	}
	b.WriteByte(']')
}

// Decode parses a tapelab.ir.v1 document strictly: the format field must be
// present and equal Format; unknown or duplicate keys, wrong types,
// non-integer ids, numbers outside float64 and trailing data are rejected
// with the JSON path of the fault ("nodes[3].parents[1]: want an integer,
// got 1.5"). Decode checks syntax and types only; run Check or CheckShapes
// on the result to validate the graph itself.
func Decode(data []byte) (*Graph, error) {
	root, err := parseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("ir: %w", err)
	}
	g, err := decodeGraph(root)
	if err != nil {
		return nil, fmt.Errorf("ir: %w", err)
	}
	return g, nil
}

const maxInt = math.MaxInt32 // ids, dims and axes beyond this are rejected

func decodeGraph(root *jsontext.Value) (*Graph, error) {
	f, err := fields(root, "", []string{"format", "nodes"}, []string{"payload"})
	if err != nil {
		return nil, err
	}
	format, err := str(f["format"], "format")
	if err != nil {
		return nil, err
	}
	if format != Format {
		return nil, fmt.Errorf("format: want %q, got %q", Format, format)
	}
	nodes, err := array(f["nodes"], "nodes")
	if err != nil {
		return nil, err
	}
	g := &Graph{Nodes: make([]Node, len(nodes)), Payload: Payload{}}
	for i, v := range nodes {
		if err := decodeNode(&g.Nodes[i], v, fmt.Sprintf("nodes[%d]", i)); err != nil {
			return nil, err
		}
	}
	if p := f["payload"]; p != nil {
		if p.Kind != jsontext.Object {
			return nil, fmt.Errorf("payload: want an object, got %s", kindName(p.Kind))
		}
		for _, m := range p.Members {
			path := join("payload", m.Key)
			id, err := strconv.Atoi(m.Key)
			if err != nil || id < 0 || strconv.Itoa(id) != m.Key {
				return nil, fmt.Errorf("%s: key must be a node id (a non-negative integer)", path)
			}
			e, err := decodeEntry(m.Value, path)
			if err != nil {
				return nil, err
			}
			g.Payload[id] = e
		}
	}
	return g, nil
}

func decodeNode(n *Node, v *jsontext.Value, path string) error {
	f, err := fields(v, path, []string{"id", "parents", "kind", "out_shape"}, []string{"attrs"})
	if err != nil {
		return err
	}
	id, err := integer(f["id"], path+".id", 0, maxInt)
	if err != nil {
		return err
	}
	n.ID = int(id)
	if n.Parents, err = ints(f["parents"], path+".parents", 0); err != nil {
		return err
	}
	if n.Kind, err = str(f["kind"], path+".kind"); err != nil {
		return err
	}
	if n.OutShape, err = ints(f["out_shape"], path+".out_shape", 1); err != nil {
		return err
	}
	if a := f["attrs"]; a != nil {
		return decodeAttrs(&n.Attrs, a, path+".attrs")
	}
	return nil
}

func decodeEntry(v *jsontext.Value, path string) (*Entry, error) {
	f, err := fields(v, path, nil, []string{"value", "weight", "bias"})
	if err != nil {
		return nil, err
	}
	e := &Entry{}
	for _, r := range []struct {
		role string
		dst  **Tensor
	}{{"value", &e.Value}, {"weight", &e.Weight}, {"bias", &e.Bias}} {
		if x := f[r.role]; x != nil {
			if *r.dst, err = decodeTensor(x, path+"."+r.role); err != nil {
				return nil, err
			}
		}
	}
	return e, nil
}

func decodeTensor(v *jsontext.Value, path string) (*Tensor, error) {
	f, err := fields(v, path, []string{"shape", "data"}, []string{"name"})
	if err != nil {
		return nil, err
	}
	t := &Tensor{}
	if x := f["name"]; x != nil {
		if t.Name, err = str(x, path+".name"); err != nil {
			return nil, err
		}
	}
	if t.Shape, err = ints(f["shape"], path+".shape", 1); err != nil {
		return nil, err
	}
	data, err := array(f["data"], path+".data")
	if err != nil {
		return nil, err
	}
	t.Data = make([]float64, len(data))
	for i, x := range data {
		if t.Data[i], err = number(x, fmt.Sprintf("%s.data[%d]", path, i)); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// ints decodes an array of integers, each at least lo; the result is never
// nil (an empty array gives an empty, non-nil slice).
func ints(v *jsontext.Value, path string, lo int64) (tensor.Shape, error) {
	xs, err := array(v, path)
	if err != nil {
		return nil, err
	}
	out := make(tensor.Shape, len(xs))
	for i, x := range xs {
		n, err := integer(x, fmt.Sprintf("%s[%d]", path, i), lo, maxInt)
		if err != nil {
			return nil, err
		}
		out[i] = int(n)
	}
	return out, nil
}
