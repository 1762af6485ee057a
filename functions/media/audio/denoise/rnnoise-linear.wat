;; RNNoise's linear layers (int8 and dense float) with WebAssembly SIMD, on RNNoise's own memory.
;;
;; RNNoise (the Opus DNN code it is built on) computes a layer as
;;   out[r] = bias[r] + scale[r] * sum_c w[r][c] * q(in[c])        (+ diag[r mod n] * in[r mod n] for GRU recurrences)
;; with q(x) = floor(127 x + 0.5) kept as a byte, and weights as int8 in blocks of 8 rows x 4 columns
;; (32 bytes, row-major within the block), dense or sparse (per 8-row block: a count, then the column
;; of each 4-column block present). The scalar build adds each block's 4 products as floats; every one
;; of those sums is an integer below 2^24 for layers of up to 1,024 inputs, so the floats hold them
;; exactly and summing in 32-bit integers here gives the very same values, hence the same output bits.
;;
;; linear(layer, out, in, scratch) -> 1 when done, 0 when the layer is not one of these (the caller
;; then runs the original code). `layer` points at the LinearLayer struct:
;;   0 bias  4 subias  8 weights (int8)  12 float_weights  16 weights_idx  20 diag  24 scale
;;   28 nb_inputs  32 nb_outputs
;; `scratch` holds the quantised input (at least MAX_INPUTS bytes).
(module
  (import "env" "memory" (memory 1))

  (global $MAX_INPUTS i32 (i32.const 1024))

  ;; q(x) as the scalar build computes it: f32 multiply, then floor(x + 0.5) in double precision,
  ;; truncated (saturating) to an integer whose low byte is kept.
  (func $quantize (param $in i32) (param $q i32) (param $n i32)
    (local $i i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (i32.store8
          (i32.add (local.get $q) (local.get $i))
          (i32.trunc_sat_f64_s
            (f64.floor
              (f64.add
                (f64.promote_f32
                  (f32.mul (f32.load (i32.add (local.get $in) (i32.shl (local.get $i) (i32.const 2)))) (f32.const 127)))
                (f64.const 0.5)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))

  ;; Rows r..r+7 from the four pair accumulators: each holds two rows as (columns 0-1, columns 2-3)
  ;; partial sums; add the halves, convert, scale, add the bias.
  (func $store8 (param $a0 v128) (param $a1 v128) (param $a2 v128) (param $a3 v128)
                (param $out i32) (param $scale i32) (param $bias i32)
    (local $v v128)
    (local.set $v
      (f32x4.mul
        (f32x4.convert_i32x4_s
          (i32x4.add
            (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $a0) (local.get $a1))
            (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $a0) (local.get $a1))))
        (v128.load (local.get $scale))))
    (if (local.get $bias) (then (local.set $v (f32x4.add (local.get $v) (v128.load (local.get $bias))))))
    (v128.store (local.get $out) (local.get $v))
    (local.set $v
      (f32x4.mul
        (f32x4.convert_i32x4_s
          (i32x4.add
            (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $a2) (local.get $a3))
            (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $a2) (local.get $a3))))
        (v128.load offset=16 (local.get $scale))))
    (if (local.get $bias) (then (local.set $v (f32x4.add (local.get $v) (v128.load offset=16 (local.get $bias))))))
    (v128.store offset=16 (local.get $out) (local.get $v)))

;; Float weights, column-major (w[c*rows + r]): out[r] = sum over c, in order, of w*in, then + bias;
  ;; each lane does the scalar build's multiply and add in the same order, so the bits are the same.
  (func $sgemv (param $w i32) (param $out i32) (param $in i32) (param $rows i32) (param $cols i32) (param $bias i32)
    (local $r i32) (local $c i32) (local $acc v128) (local $p i32) (local $stride i32)
    (local.set $stride (i32.shl (local.get $rows) (i32.const 2)))
    (local.set $r (i32.const 0))
    (loop $rows4
      (local.set $acc (v128.const f32x4 0 0 0 0))
      (local.set $p (i32.add (local.get $w) (i32.shl (local.get $r) (i32.const 2))))
      (local.set $c (i32.const 0))
      (block $done
        (loop $col
          (br_if $done (i32.ge_s (local.get $c) (local.get $cols)))
          (local.set $acc
            (f32x4.add
              (f32x4.mul (v128.load (local.get $p))
                         (v128.load32_splat (i32.add (local.get $in) (i32.shl (local.get $c) (i32.const 2)))))
              (local.get $acc)))
          (local.set $p (i32.add (local.get $p) (local.get $stride)))
          (local.set $c (i32.add (local.get $c) (i32.const 1)))
          (br $col)))
      (if (local.get $bias)
        (then (local.set $acc (f32x4.add (local.get $acc)
                (v128.load (i32.add (local.get $bias) (i32.shl (local.get $r) (i32.const 2))))))))
      (v128.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2))) (local.get $acc))
      (local.set $r (i32.add (local.get $r) (i32.const 4)))
      (br_if $rows4 (i32.lt_s (local.get $r) (local.get $rows)))))

  (func (export "linear") (param $layer i32) (param $out i32) (param $in i32) (param $q i32) (result i32)
    (local $w i32) (local $idx i32) (local $rows i32) (local $cols i32) (local $scale i32) (local $bias i32)
    (local $diag i32) (local $r i32) (local $c i32) (local $n i32) (local $k i32) (local $p i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $x v128) (local $wv v128)
    (local.set $w (i32.load offset=8 (local.get $layer)))
    (local.set $idx (i32.load offset=16 (local.get $layer)))
    (local.set $cols (i32.load offset=28 (local.get $layer)))
    (local.set $rows (i32.load offset=32 (local.get $layer)))
    (local.set $scale (i32.load offset=24 (local.get $layer)))
    (local.set $bias (i32.load (local.get $layer)))
    (local.set $diag (i32.load offset=20 (local.get $layer)))
    ;; Float weights take precedence in RNNoise: dense ones, 4 rows at a time, here.
    (if (i32.load offset=12 (local.get $layer))
      (then
        (if (i32.or (i32.or (local.get $idx) (local.get $diag))
                    (i32.or (i32.and (local.get $rows) (i32.const 3)) (i32.le_s (local.get $rows) (i32.const 0))))
          (then (return (i32.const 0))))
        (call $sgemv (i32.load offset=12 (local.get $layer)) (local.get $out) (local.get $in) (local.get $rows) (local.get $cols) (local.get $bias))
        (return (i32.const 1))))
    ;; Int8 layers of whole blocks.
    (if (i32.or
          (i32.eqz (local.get $w))
          (i32.or
            (i32.or (i32.and (local.get $rows) (i32.const 7)) (i32.and (local.get $cols) (i32.const 3)))
            (i32.or (i32.le_s (local.get $rows) (i32.const 0))
                    (i32.or (i32.le_s (local.get $cols) (i32.const 0)) (i32.gt_s (local.get $cols) (global.get $MAX_INPUTS))))))
      (then (return (i32.const 0))))
    (if (local.get $diag)
      (then (if (i32.ne (local.get $rows) (i32.mul (local.get $cols) (i32.const 3))) (then (return (i32.const 0))))))
    (call $quantize (local.get $in) (local.get $q) (local.get $cols))

    (local.set $r (i32.const 0))
    (loop $rowblock
      (local.set $a0 (v128.const i32x4 0 0 0 0))
      (local.set $a1 (v128.const i32x4 0 0 0 0))
      (local.set $a2 (v128.const i32x4 0 0 0 0))
      (local.set $a3 (v128.const i32x4 0 0 0 0))
      (if (local.get $idx)
        (then
          ;; sparse: a count, then the first column of each 4-column block present
          (local.set $n (i32.load (local.get $idx)))
          (local.set $k (i32.add (local.get $idx) (i32.const 4)))
          (local.set $idx (i32.add (local.get $k) (i32.shl (local.get $n) (i32.const 2))))
          (if (local.get $n)
            (then
              (loop $sparse
                (local.set $x (i16x8.extend_low_i8x16_s (v128.load32_splat (i32.add (local.get $q) (i32.load (local.get $k))))))
                (local.set $wv (v128.load (local.get $w)))
                (local.set $a0 (i32x4.add (local.get $a0) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $wv)) (local.get $x))))
                (local.set $a1 (i32x4.add (local.get $a1) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $wv)) (local.get $x))))
                (local.set $wv (v128.load offset=16 (local.get $w)))
                (local.set $a2 (i32x4.add (local.get $a2) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $wv)) (local.get $x))))
                (local.set $a3 (i32x4.add (local.get $a3) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $wv)) (local.get $x))))
                (local.set $w (i32.add (local.get $w) (i32.const 32)))
                (local.set $k (i32.add (local.get $k) (i32.const 4)))
                (br_if $sparse (i32.lt_u (local.get $k) (local.get $idx)))))))
        (else
          ;; dense: every block, columns 0, 4, 8, ...
          (local.set $c (i32.const 0))
          (loop $dense
            (local.set $x (i16x8.extend_low_i8x16_s (v128.load32_splat (i32.add (local.get $q) (local.get $c)))))
            (local.set $wv (v128.load (local.get $w)))
            (local.set $a0 (i32x4.add (local.get $a0) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $wv)) (local.get $x))))
            (local.set $a1 (i32x4.add (local.get $a1) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $wv)) (local.get $x))))
            (local.set $wv (v128.load offset=16 (local.get $w)))
            (local.set $a2 (i32x4.add (local.get $a2) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $wv)) (local.get $x))))
            (local.set $a3 (i32x4.add (local.get $a3) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $wv)) (local.get $x))))
            (local.set $w (i32.add (local.get $w) (i32.const 32)))
            (local.set $c (i32.add (local.get $c) (i32.const 4)))
            (br_if $dense (i32.lt_s (local.get $c) (local.get $cols))))))
      (local.set $p (i32.shl (local.get $r) (i32.const 2)))
      (call $store8 (local.get $a0) (local.get $a1) (local.get $a2) (local.get $a3)
        (i32.add (local.get $out) (local.get $p))
        (i32.add (local.get $scale) (local.get $p))
        (select (i32.add (local.get $bias) (local.get $p)) (i32.const 0) (local.get $bias)))
      (local.set $r (i32.add (local.get $r) (i32.const 8)))
      (br_if $rowblock (i32.lt_s (local.get $r) (local.get $rows))))

    ;; GRU recurrences: out[c + j*cols] += diag[c + j*cols] * in[c], j = 0..2, as diag*in + out.
    (if (local.get $diag)
      (then
        (local.set $c (i32.const 0))
        (loop $d
          (local.set $x (v128.load (i32.add (local.get $in) (i32.shl (local.get $c) (i32.const 2)))))
          (local.set $k (i32.const 0))
          (loop $j
            (local.set $p (i32.shl (i32.add (local.get $c) (i32.mul (local.get $k) (local.get $cols))) (i32.const 2)))
            (v128.store (i32.add (local.get $out) (local.get $p))
              (f32x4.add
                (f32x4.mul (v128.load (i32.add (local.get $diag) (local.get $p))) (local.get $x))
                (v128.load (i32.add (local.get $out) (local.get $p)))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br_if $j (i32.lt_s (local.get $k) (i32.const 3))))
          (local.set $c (i32.add (local.get $c) (i32.const 4)))
          (br_if $d (i32.lt_s (local.get $c) (local.get $cols))))))
    (i32.const 1)))
