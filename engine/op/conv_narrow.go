package op

import "tapelab/engine/tensor"

// The convolution kernels for outputs too narrow for rows (fewer than
// minRow columns, as after a pool): each computes one sum at a time in
// the order convInto and convBack promise, for four output channels (or,
// for dX, four input channels) at once, so that four independent sums
// share each load instead of one sum waiting on its previous addition.

// convIntoNarrow is convInto one output position at a time.
func convIntoNarrow(y, x, w, b *tensor.Tensor, g conv, accumulate bool) {
	plane := g.oh * g.ow
	for n := 0; n < g.n; n++ {
		img := x.Data[n*g.xStride : (n+1)*g.xStride]
		o := 0
		for ; o+4 <= g.o; o += 4 {
			f0 := w.Data[o*g.wSize:][:g.wSize]
			f1 := w.Data[(o+1)*g.wSize:][:g.wSize]
			f2 := w.Data[(o+2)*g.wSize:][:g.wSize]
			f3 := w.Data[(o+3)*g.wSize:][:g.wSize]
			base := (n*g.o + o) * plane
			for i := 0; i < g.oh; i++ {
				p0, p1 := span(i, g.stride, g.pad, g.kh, g.h)
				for j := 0; j < g.ow; j++ {
					q0, q1 := span(j, g.stride, g.pad, g.kw, g.w)
					k := base + i*g.ow + j
					s0 := firstTerm(y, b, k, o, accumulate)
					s1 := firstTerm(y, b, k+plane, o+1, accumulate)
					s2 := firstTerm(y, b, k+2*plane, o+2, accumulate)
					s3 := firstTerm(y, b, k+3*plane, o+3, accumulate)
					for c := 0; c < g.c; c++ {
						for p := p0; p < p1; p++ {
							xr := (c*g.h+i*g.stride+p-g.pad)*g.w + j*g.stride - g.pad
							wr := (c*g.kh + p) * g.kw
							xs := img[xr+q0 : xr+q1]
							w0, w1 := f0[wr+q0:wr+q1], f1[wr+q0:wr+q1]
							w2, w3 := f2[wr+q0:wr+q1], f3[wr+q0:wr+q1]
							for q, xv := range xs {
								s0 += float64(xv * w0[q])
								s1 += float64(xv * w1[q])
								s2 += float64(xv * w2[q])
								s3 += float64(xv * w3[q])
							}
						}
					}
					y.Data[k], y.Data[k+plane], y.Data[k+2*plane], y.Data[k+3*plane] = s0, s1, s2, s3
				}
			}
		}
		for ; o < g.o; o++ {
			filt := w.Data[o*g.wSize:][:g.wSize]
			base := (n*g.o + o) * plane
			for i := 0; i < g.oh; i++ {
				p0, p1 := span(i, g.stride, g.pad, g.kh, g.h)
				for j := 0; j < g.ow; j++ {
					q0, q1 := span(j, g.stride, g.pad, g.kw, g.w)
					k := base + i*g.ow + j
					s := firstTerm(y, b, k, o, accumulate)
					for c := 0; c < g.c; c++ {
						for p := p0; p < p1; p++ {
							xr := (c*g.h+i*g.stride+p-g.pad)*g.w + j*g.stride - g.pad
							wr := (c*g.kh + p) * g.kw
							ws := filt[wr+q0 : wr+q1]
							for q, xv := range img[xr+q0 : xr+q1] {
								s += float64(xv * ws[q])
							}
						}
					}
					y.Data[k] = s
				}
			}
		}
	}
}

// firstTerm is the start of output k's sum (channel o): y + b[o], y, b[o]
// or +0, as accumulate and b say.
func firstTerm(y, b *tensor.Tensor, k, o int, accumulate bool) float64 {
	switch {
	case accumulate && b != nil:
		return y.Data[k] + b.Data[o]
	case accumulate:
		return y.Data[k]
	case b != nil:
		return b.Data[o]
	}
	return 0
}

// convBackWNarrow is convBackW, each sum over (n, i, j) one product at a
// time, for four output channels at once.
func convBackWNarrow(dw, dy, x *tensor.Tensor, g conv) {
	plane := g.oh * g.ow
	for c := 0; c < g.c; c++ {
		for p := 0; p < g.kh; p++ {
			i0, i1 := reach(p, g.stride, g.pad, g.h, g.oh)
			for q := 0; q < g.kw; q++ {
				j0, j1 := g.cols(q)
				o := 0
				for ; o+4 <= g.o; o += 4 {
					var s0, s1, s2, s3 float64
					for n := 0; n < g.n; n++ {
						img := x.Data[n*g.xStride+c*g.h*g.w:][:g.h*g.w]
						d0 := dy.Data[(n*g.o+o)*plane:][:4*plane]
						for i := i0; i < i1; i++ {
							xr := (i*g.stride+p-g.pad)*g.w + q - g.pad
							for j := j0; j < j1; j++ {
								xv := img[xr+j*g.stride]
								k := i*g.ow + j
								s0 += float64(d0[k] * xv)
								s1 += float64(d0[k+plane] * xv)
								s2 += float64(d0[k+2*plane] * xv)
								s3 += float64(d0[k+3*plane] * xv)
							}
						}
					}
					at := ((o*g.c+c)*g.kh+p)*g.kw + q
					dw.Data[at], dw.Data[at+g.wSize], dw.Data[at+2*g.wSize], dw.Data[at+3*g.wSize] = s0, s1, s2, s3
				}
				for ; o < g.o; o++ {
					s := 0.0
					for n := 0; n < g.n; n++ {
						img := x.Data[n*g.xStride+c*g.h*g.w:][:g.h*g.w]
						d := dy.Data[(n*g.o+o)*plane:][:plane]
						for i := i0; i < i1; i++ {
							xr := (i*g.stride+p-g.pad)*g.w + q - g.pad
							for j := j0; j < j1; j++ {
								s += float64(d[i*g.ow+j] * img[xr+j*g.stride])
							}
						}
					}
					dw.Data[((o*g.c+c)*g.kh+p)*g.kw+q] = s
				}
			}
		}
	}
}

// convBackXNarrow writes dX[n,c,h,w] = Σ dY[n,o,i,j]·W[o,c,p,q] over the
// windows (i, j) that read it, one sum at a time in (o, i, j) order, for
// four input channels at once.
func convBackXNarrow(dx, dy, w *tensor.Tensor, g conv) {
	plane, img := g.oh*g.ow, g.h*g.w
	for n := 0; n < g.n; n++ {
		d := dy.Data[n*g.o*plane:][:g.o*plane]
		for r := 0; r < g.h; r++ {
			// The windows i whose kernel row p = r + pad − i·stride lies in the kernel.
			i0, i1 := reach(g.kh-1-r-g.pad, g.stride, 0, g.kh, g.oh)
			for col := 0; col < g.w; col++ {
				j0, j1 := reach(g.kw-1-col-g.pad, g.stride, 0, g.kw, g.ow)
				c := 0
				for ; c+4 <= g.c; c += 4 {
					var s0, s1, s2, s3 float64
					for o := 0; o < g.o; o++ {
						f := w.Data[(o*g.c+c)*g.kh*g.kw:][:4*g.kh*g.kw]
						for i := i0; i < i1; i++ {
							wr := (r + g.pad - i*g.stride) * g.kw
							for j := j0; j < j1; j++ {
								gv := d[o*plane+i*g.ow+j]
								at := wr + col + g.pad - j*g.stride
								s0 += float64(gv * f[at])
								s1 += float64(gv * f[at+g.kh*g.kw])
								s2 += float64(gv * f[at+2*g.kh*g.kw])
								s3 += float64(gv * f[at+3*g.kh*g.kw])
							}
						}
					}
					at := (n*g.c+c)*img + r*g.w + col
					dx.Data[at], dx.Data[at+img], dx.Data[at+2*img], dx.Data[at+3*img] = s0, s1, s2, s3
				}
				for ; c < g.c; c++ {
					s := 0.0
					for o := 0; o < g.o; o++ {
						f := w.Data[(o*g.c+c)*g.kh*g.kw:][:g.kh*g.kw]
						for i := i0; i < i1; i++ {
							wr := (r + g.pad - i*g.stride) * g.kw
							for j := j0; j < j1; j++ {
								s += float64(d[o*plane+i*g.ow+j] * f[wr+col+g.pad-j*g.stride])
							}
						}
					}
					dx.Data[(n*g.c+c)*img+r*g.w+col] = s
				}
			}
		}
	}
}
