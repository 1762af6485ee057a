;; YIN's difference function (functions/media/voice-analysis/pitch.ts) in WebAssembly SIMD:
;;   d[lag] = sum over i in [start, start + window) of (x[i] - x[i + lag])^2,  lag = 1 .. lags
;; with x float32 and every sum in double precision, adding its terms in order of i. Two lags per
;; lane pair and four per pass (each x[i] loaded once): each lane does the JavaScript's operations
;; in its order, so the values are the same to the bit. x must hold three samples past the last one
;; a lag reads (the spare lanes of the last pass read them; their sums are not stored).
(module
  (memory (export "memory") 16)

  (func (export "difference") (param $x i32) (param $start i32) (param $window i32) (param $lags i32) (param $d i32)
    (local $lag i32) (local $p i32) (local $end i32) (local $q i32)
    (local $v v128) (local $s01 v128) (local $s23 v128) (local $t v128)
    (local.set $end (i32.add (local.get $x) (i32.shl (i32.add (local.get $start) (local.get $window)) (i32.const 2))))
    (local.set $lag (i32.const 1))
    (block $done
      (loop $lags4
        (br_if $done (i32.gt_s (local.get $lag) (local.get $lags)))
        (local.set $s01 (v128.const f64x2 0 0))
        (local.set $s23 (v128.const f64x2 0 0))
        (local.set $p (i32.add (local.get $x) (i32.shl (local.get $start) (i32.const 2))))
        (loop $i
          (local.set $v (f64x2.splat (f64.promote_f32 (f32.load (local.get $p)))))
          (local.set $q (i32.add (local.get $p) (i32.shl (local.get $lag) (i32.const 2))))
          (local.set $t (f64x2.sub (local.get $v) (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $q)))))
          (local.set $s01 (f64x2.add (local.get $s01) (f64x2.mul (local.get $t) (local.get $t))))
          (local.set $t (f64x2.sub (local.get $v) (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (local.get $q)))))
          (local.set $s23 (f64x2.add (local.get $s23) (f64x2.mul (local.get $t) (local.get $t))))
          (local.set $p (i32.add (local.get $p) (i32.const 4)))
          (br_if $i (i32.lt_u (local.get $p) (local.get $end))))
        ;; d[lag .. lag+3], as far as lags goes
        (local.set $q (i32.add (local.get $d) (i32.shl (local.get $lag) (i32.const 3))))
        (f64.store (local.get $q) (f64x2.extract_lane 0 (local.get $s01)))
        (if (i32.le_s (i32.add (local.get $lag) (i32.const 1)) (local.get $lags))
          (then (f64.store offset=8 (local.get $q) (f64x2.extract_lane 1 (local.get $s01)))))
        (if (i32.le_s (i32.add (local.get $lag) (i32.const 2)) (local.get $lags))
          (then (f64.store offset=16 (local.get $q) (f64x2.extract_lane 0 (local.get $s23)))))
        (if (i32.le_s (i32.add (local.get $lag) (i32.const 3)) (local.get $lags))
          (then (f64.store offset=24 (local.get $q) (f64x2.extract_lane 1 (local.get $s23)))))
        (local.set $lag (i32.add (local.get $lag) (i32.const 4)))
        (br $lags4)))))
