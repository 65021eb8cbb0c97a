package worms

// This file holds the two generators of rules §5.1 and §10 that must match
// the official engine bit for bit: Gustavson's 3D simplex noise with the
// seed as z (the terrain and the health-pack tilt) and Kotlin's XorWow (the
// collision coin).

// perlin is Ken Perlin's reference permutation of 0..255.
var perlin = [256]uint8{
	151, 160, 137, 91, 90, 15, 131, 13, 201, 95, 96, 53, 194, 233, 7, 225, 140, 36, 103, 30, 69, 142,
	8, 99, 37, 240, 21, 10, 23, 190, 6, 148, 247, 120, 234, 75, 0, 26, 197, 62, 94, 252, 219, 203, 117,
	35, 11, 32, 57, 177, 33, 88, 237, 149, 56, 87, 174, 20, 125, 136, 171, 168, 68, 175, 74, 165, 71,
	134, 139, 48, 27, 166, 77, 146, 158, 231, 83, 111, 229, 122, 60, 211, 133, 230, 220, 105, 92, 41,
	55, 46, 245, 40, 244, 102, 143, 54, 65, 25, 63, 161, 1, 216, 80, 73, 209, 76, 132, 187, 208, 89,
	18, 169, 200, 196, 135, 130, 116, 188, 159, 86, 164, 100, 109, 198, 173, 186, 3, 64, 52, 217, 226,
	250, 124, 123, 5, 202, 38, 147, 118, 126, 255, 82, 85, 212, 207, 206, 59, 227, 47, 16, 58, 17, 182,
	189, 28, 42, 223, 183, 170, 213, 119, 248, 152, 2, 44, 154, 163, 70, 221, 153, 101, 155, 167, 43,
	172, 9, 129, 22, 39, 253, 19, 98, 108, 110, 79, 113, 224, 232, 178, 185, 112, 104, 218, 246, 97,
	228, 251, 34, 242, 193, 238, 210, 144, 12, 191, 179, 162, 241, 81, 51, 145, 235, 249, 14, 239, 107,
	49, 192, 214, 31, 181, 199, 106, 157, 184, 84, 204, 176, 115, 121, 50, 45, 127, 4, 150, 254, 138,
	236, 205, 93, 222, 114, 67, 29, 24, 72, 243, 141, 128, 195, 78, 66, 215, 61, 156, 180,
}

// grad3 are the 12 edge gradients in the reference order.
var grad3 = [12][3]float64{
	{1, 1, 0}, {-1, 1, 0}, {1, -1, 0}, {-1, -1, 0},
	{1, 0, 1}, {-1, 0, 1}, {1, 0, -1}, {-1, 0, -1},
	{0, 1, 1}, {0, -1, 1}, {0, 1, -1}, {0, -1, -1},
}

// perm is perlin doubled so that index sums up to 511 need no wrapping.
func perm(i int) int { return int(perlin[i&255]) }

// The skew factors are variables, not constants: Go folds constant
// expressions exactly, while the engine rounds 1.0/3.0 and 1.0/6.0 to
// float64 first and then multiplies at run time (3.0*G3 is not exactly 0.5).
var (
	skewF3   = 1.0 / 3.0
	unskewG3 = 1.0 / 6.0
)

// noise is the engine's simplex noise at (x, y) with z = seed, rescaled to
// about [0, 1]. Every product feeding a sum is converted explicitly so that
// no platform fuses it into a multiply-add: the engine (JVM) never does.
func noise(x, y float64, seed int32) float64 {
	z := float64(seed)
	s := float64((x + y + z) * skewF3)
	i := fastfloor(x + s)
	j := fastfloor(y + s)
	k := fastfloor(z + s)
	t := float64(float64(i+j+k) * unskewG3) // Kotlin Int: the sum wraps
	x0 := x - (float64(i) - t)
	y0 := y - (float64(j) - t)
	z0 := z - (float64(k) - t)

	var i1, j1, k1, i2, j2, k2 int
	if x0 >= y0 {
		switch {
		case y0 >= z0:
			i1, j1, k1, i2, j2, k2 = 1, 0, 0, 1, 1, 0
		case x0 >= z0:
			i1, j1, k1, i2, j2, k2 = 1, 0, 0, 1, 0, 1
		default:
			i1, j1, k1, i2, j2, k2 = 0, 0, 1, 1, 0, 1
		}
	} else {
		switch {
		case y0 < z0:
			i1, j1, k1, i2, j2, k2 = 0, 0, 1, 0, 1, 1
		case x0 < z0:
			i1, j1, k1, i2, j2, k2 = 0, 1, 0, 0, 1, 1
		default:
			i1, j1, k1, i2, j2, k2 = 0, 1, 0, 1, 1, 0
		}
	}
	g2 := float64(2.0 * unskewG3)
	g3 := float64(3.0 * unskewG3)
	x1, y1, z1 := x0-float64(i1)+unskewG3, y0-float64(j1)+unskewG3, z0-float64(k1)+unskewG3
	x2, y2, z2 := x0-float64(i2)+g2, y0-float64(j2)+g2, z0-float64(k2)+g2
	x3, y3, z3 := x0-1.0+g3, y0-1.0+g3, z0-1.0+g3

	ii, jj, kk := int(i&255), int(j&255), int(k&255)
	gi0 := perm(ii+perm(jj+perm(kk))) % 12
	gi1 := perm(ii+i1+perm(jj+j1+perm(kk+k1))) % 12
	gi2 := perm(ii+i2+perm(jj+j2+perm(kk+k2))) % 12
	gi3 := perm(ii+1+perm(jj+1+perm(kk+1))) % 12

	n := corner(gi0, x0, y0, z0)
	n += corner(gi1, x1, y1, z1)
	n += corner(gi2, x2, y2, z2)
	n += corner(gi3, x3, y3, z3)
	// The engine sums n0+n1+n2+n3 left to right, as above.
	return float64((float64(32.0*n) + 0.8679777777778225) * 0.576051614)
}

// corner is one simplex corner's contribution (0.6 − r²)⁴ · (g · d).
func corner(gi int, x, y, z float64) float64 {
	t := 0.6 - float64(x*x) - float64(y*y) - float64(z*z)
	if t < 0 {
		return 0
	}
	t = float64(t * t)
	g := &grad3[gi]
	dot := float64(g[0]*x) + float64(g[1]*y) + float64(g[2]*z)
	return float64(float64(t*t) * dot)
}

// fastfloor truncates toward zero and steps down for negative fractions,
// in Kotlin Int arithmetic: the conversion saturates (seeds near ±2³¹ push
// z+s past the int32 range) and the step down wraps. Go's own conversion of
// an out-of-range float is implementation-defined, so saturate by hand.
func fastfloor(x float64) int32 {
	var xi int32
	switch {
	case x != x: // NaN converts to 0 in Kotlin
	case x >= 2147483647:
		xi = 2147483647
	case x <= -2147483648:
		xi = -2147483648
	default:
		xi = int32(x)
	}
	if x < float64(xi) {
		return xi - 1
	}
	return xi
}

// xorWow is Kotlin's default Random(seed: Int): Marsaglia's xorwow with a
// Weyl addend, seeded and warmed up as kotlin.random.XorWowRandom is.
type xorWow struct {
	x, y, z, w, v, addend uint32
}

func newXorWow(seed int32) xorWow {
	s1 := uint32(seed)
	s2 := uint32(seed >> 31)
	r := xorWow{x: s1, y: s2, z: 0, w: 0, v: ^s1, addend: s1<<10 ^ s2>>4}
	for range 64 {
		r.next()
	}
	return r
}

func (r *xorWow) next() uint32 {
	t := r.x
	t ^= t >> 2
	r.x, r.y, r.z, r.w = r.y, r.z, r.w, r.v
	v0 := r.v
	t = t ^ t<<1 ^ v0 ^ v0<<4
	r.v = t
	r.addend += 362437
	return t + r.addend
}

// nextBoolean is Kotlin's Random.nextBoolean: the top bit of one output.
func (r *xorWow) nextBoolean() bool { return r.next()>>31 != 0 }
