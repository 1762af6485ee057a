;; The resamplers' inner loops (functions/media/audio/resample.ts) in WebAssembly SIMD. Each lane does the
;; very operations of the scalar JavaScript, in the same order and in double precision, so the
;; output is the same to the bit; two lanes (and no bounds checks) make it about twice as fast.
(module
  (memory (export "memory") 16)

  ;; Polyphase: for each output, `taps` products of buffer samples and one phase's coefficients
  ;; (both float32, widened), summed in four partial sums (j mod 4), added as ((s0 + s1) + s2) + s3.
  ;; Outputs are produced while o < n and k + half <= last; the next k and phase are left in the
  ;; globals below. buf[0] is input index bufStart.
  (global $k (export "k") (mut i32) (i32.const 0))
  (global $phase (export "phase") (mut i32) (i32.const 0))

  (func (export "polyphase")
    (param $buf i32) (param $coeffs i32) (param $taps i32) (param $out i32) (param $n i32)
    (param $k i32) (param $phase i32) (param $up i32) (param $down i32)
    (param $bufStart i32) (param $half i32) (param $last i32)
    (result i32)
    (local $o i32) (local $x i32) (local $c i32) (local $j i32)
    (local $s01 v128) (local $s23 v128) (local $xb v128) (local $cb v128)
    (block $done
      (loop $output
        (br_if $done (i32.ge_s (local.get $o) (local.get $n)))
        (br_if $done (i32.gt_s (i32.add (local.get $k) (local.get $half)) (local.get $last)))
        (local.set $x (i32.add (local.get $buf)
          (i32.shl (i32.sub (i32.add (i32.sub (local.get $k) (local.get $half)) (i32.const 1)) (local.get $bufStart)) (i32.const 2))))
        (local.set $c (i32.add (local.get $coeffs) (i32.shl (i32.mul (local.get $phase) (local.get $taps)) (i32.const 2))))
        (local.set $s01 (v128.const f64x2 0 0))
        (local.set $s23 (v128.const f64x2 0 0))
        (local.set $j (i32.const 0))
        (loop $tap
          (local.set $xb (v128.load (local.get $x)))
          (local.set $cb (v128.load (local.get $c)))
          (local.set $s01 (f64x2.add (local.get $s01)
            (f64x2.mul (f64x2.promote_low_f32x4 (local.get $xb)) (f64x2.promote_low_f32x4 (local.get $cb)))))
          (local.set $s23 (f64x2.add (local.get $s23)
            (f64x2.mul
              (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $xb) (local.get $xb)))
              (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $cb) (local.get $cb))))))
          (local.set $x (i32.add (local.get $x) (i32.const 16)))
          (local.set $c (i32.add (local.get $c) (i32.const 16)))
          (local.set $j (i32.add (local.get $j) (i32.const 4)))
          (br_if $tap (i32.lt_s (local.get $j) (local.get $taps))))
        (f32.store
          (i32.add (local.get $out) (i32.shl (local.get $o) (i32.const 2)))
          (f32.demote_f64
            (f64.add
              (f64.add
                (f64.add (f64x2.extract_lane 0 (local.get $s01)) (f64x2.extract_lane 1 (local.get $s01)))
                (f64x2.extract_lane 0 (local.get $s23)))
              (f64x2.extract_lane 1 (local.get $s23)))))
        (local.set $o (i32.add (local.get $o) (i32.const 1)))
        (local.set $phase (i32.add (local.get $phase) (local.get $down)))
        (if (i32.ge_s (local.get $phase) (local.get $up))
          (then
            (local.set $k (i32.add (local.get $k) (i32.div_s (local.get $phase) (local.get $up))))
            (local.set $phase (i32.rem_s (local.get $phase) (local.get $up)))))
        (br $output)))
    (global.set $k (local.get $k))
    (global.set $phase (local.get $phase))
    (local.get $o))

  ;; Half-band 2x: for m in [0, count), out[2m] = x[i] and out[2m+1] = a + b with i = offset + m,
  ;; a and b alternating over the pairs: acc(k mod 2) += c[k] * (x[i-k] + x[i+1+k]). Two outputs per
  ;; step (lanes i and i+1); x and c are float64, out float32. x must hold one sample past the last
  ;; one read (the second lane of an odd last step reads it; that lane is not stored).
  (func (export "halfband") (param $c i32) (param $pairs i32) (param $x i32) (param $offset i32) (param $count i32) (param $out i32)
    (local $m i32) (local $xi i32) (local $k i32) (local $a v128) (local $b v128) (local $t v128) (local $y v128)
    (block $done
      (loop $step
        (br_if $done (i32.ge_s (local.get $m) (local.get $count)))
        (local.set $xi (i32.add (local.get $x) (i32.shl (i32.add (local.get $offset) (local.get $m)) (i32.const 3))))
        (local.set $a (v128.const f64x2 0 0))
        (local.set $b (v128.const f64x2 0 0))
        (local.set $k (i32.const 0))
        (block $pairsdone
          (loop $pair
            (br_if $pairsdone (i32.ge_s (local.get $k) (local.get $pairs)))
            (local.set $t
              (f64x2.mul
                (v128.load64_splat (i32.add (local.get $c) (i32.shl (local.get $k) (i32.const 3))))
                (f64x2.add
                  (v128.load (i32.sub (local.get $xi) (i32.shl (local.get $k) (i32.const 3))))
                  (v128.load (i32.add (local.get $xi) (i32.shl (i32.add (local.get $k) (i32.const 1)) (i32.const 3)))))))
            (if (i32.and (local.get $k) (i32.const 1))
              (then (local.set $b (f64x2.add (local.get $b) (local.get $t))))
              (else (local.set $a (f64x2.add (local.get $a) (local.get $t)))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $pair)))
        ;; [x_i, y_i, x_i+1, y_i+1]
        (local.set $y
          (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23
            (f32x4.demote_f64x2_zero (v128.load (local.get $xi)))
            (f32x4.demote_f64x2_zero (f64x2.add (local.get $a) (local.get $b)))))
        (if (i32.lt_s (i32.add (local.get $m) (i32.const 1)) (local.get $count))
          (then (v128.store (i32.add (local.get $out) (i32.shl (local.get $m) (i32.const 3))) (local.get $y)))
          (else (v128.store64_lane 0 (i32.add (local.get $out) (i32.shl (local.get $m) (i32.const 3))) (local.get $y))))
        (local.set $m (i32.add (local.get $m) (i32.const 2)))
        (br $step)))))
