;; |X[k]|^2 of a real frame by the radix-2 FFT of functions/media/voice-analysis/dsp.ts, in WebAssembly
;; SIMD: two butterflies per instruction (consecutive k of a group), each lane doing the
;; JavaScript's double-precision operations in its order, so the values are the same to the bit.
;;
;; power(re, im, n, tw, out): re holds the frame already in bit-reversed order (zero-padded), im
;; zeros; tw holds, for each stage of half-size h (1, 2, 4, ... n/2), the twiddles of that stage at
;; h .. 2h-1: (cos, sin) pairs as the JavaScript reads them, cos[k * n / (2h)] and sin[...].
;; out receives n/2 + 1 doubles. re and im are overwritten.
(module
  (memory (export "memory") 4)

  (func (export "power") (param $re i32) (param $im i32) (param $n i32) (param $tw i32) (param $out i32)
    (local $half i32) (local $start i32) (local $k i32) (local $a i32) (local $b i32) (local $w i32)
    (local $wr v128) (local $wi v128) (local $rb v128) (local $ib v128) (local $ra v128) (local $ia v128)
    (local $xr v128) (local $xi v128)
    (local $swr f64) (local $swi f64) (local $srb f64) (local $sib f64) (local $sxr f64) (local $sxi f64)
    ;; Stage of half 1: one butterfly per group (w = cos 0, sin 0), scalar.
    (local.set $swr (f64.load (i32.add (local.get $tw) (i32.const 16))))
    (local.set $swi (f64.load offset=8 (i32.add (local.get $tw) (i32.const 16))))
    (local.set $start (i32.const 0))
    (loop $g1
      (local.set $a (i32.shl (local.get $start) (i32.const 3)))
      (local.set $b (i32.add (local.get $a) (i32.const 8)))
      (local.set $srb (f64.load (i32.add (local.get $re) (local.get $b))))
      (local.set $sib (f64.load (i32.add (local.get $im) (local.get $b))))
      (local.set $sxr (f64.sub (f64.mul (local.get $srb) (local.get $swr)) (f64.mul (local.get $sib) (local.get $swi))))
      (local.set $sxi (f64.add (f64.mul (local.get $srb) (local.get $swi)) (f64.mul (local.get $sib) (local.get $swr))))
      (f64.store (i32.add (local.get $re) (local.get $b)) (f64.sub (f64.load (i32.add (local.get $re) (local.get $a))) (local.get $sxr)))
      (f64.store (i32.add (local.get $im) (local.get $b)) (f64.sub (f64.load (i32.add (local.get $im) (local.get $a))) (local.get $sxi)))
      (f64.store (i32.add (local.get $re) (local.get $a)) (f64.add (f64.load (i32.add (local.get $re) (local.get $a))) (local.get $sxr)))
      (f64.store (i32.add (local.get $im) (local.get $a)) (f64.add (f64.load (i32.add (local.get $im) (local.get $a))) (local.get $sxi)))
      (local.set $start (i32.add (local.get $start) (i32.const 2)))
      (br_if $g1 (i32.lt_u (local.get $start) (local.get $n))))
    ;; Stages of half 2 .. n/2: butterflies k and k+1 of a group side by side.
    (local.set $half (i32.const 2))
    (block $stages
      (loop $stage
        (br_if $stages (i32.ge_u (local.get $half) (local.get $n)))
        (local.set $start (i32.const 0))
        (loop $group
          (local.set $k (i32.const 0))
          (loop $pair
            (local.set $a (i32.shl (i32.add (local.get $start) (local.get $k)) (i32.const 3)))
            (local.set $b (i32.add (local.get $a) (i32.shl (local.get $half) (i32.const 3))))
            ;; twiddles of k and k+1: (cos, sin) pairs at (half + k) * 16
            (local.set $w (i32.add (local.get $tw) (i32.shl (i32.add (local.get $half) (local.get $k)) (i32.const 4))))
            (local.set $xr (v128.load (local.get $w)))
            (local.set $xi (v128.load offset=16 (local.get $w)))
            (local.set $wr (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $xr) (local.get $xi)))
            (local.set $wi (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $xr) (local.get $xi)))
            (local.set $rb (v128.load (i32.add (local.get $re) (local.get $b))))
            (local.set $ib (v128.load (i32.add (local.get $im) (local.get $b))))
            (local.set $ra (v128.load (i32.add (local.get $re) (local.get $a))))
            (local.set $ia (v128.load (i32.add (local.get $im) (local.get $a))))
            (local.set $xr (f64x2.sub (f64x2.mul (local.get $rb) (local.get $wr)) (f64x2.mul (local.get $ib) (local.get $wi))))
            (local.set $xi (f64x2.add (f64x2.mul (local.get $rb) (local.get $wi)) (f64x2.mul (local.get $ib) (local.get $wr))))
            (v128.store (i32.add (local.get $re) (local.get $b)) (f64x2.sub (local.get $ra) (local.get $xr)))
            (v128.store (i32.add (local.get $im) (local.get $b)) (f64x2.sub (local.get $ia) (local.get $xi)))
            (v128.store (i32.add (local.get $re) (local.get $a)) (f64x2.add (local.get $ra) (local.get $xr)))
            (v128.store (i32.add (local.get $im) (local.get $a)) (f64x2.add (local.get $ia) (local.get $xi)))
            (local.set $k (i32.add (local.get $k) (i32.const 2)))
            (br_if $pair (i32.lt_u (local.get $k) (local.get $half))))
          (local.set $start (i32.add (local.get $start) (i32.shl (local.get $half) (i32.const 1))))
          (br_if $group (i32.lt_u (local.get $start) (local.get $n))))
        (local.set $half (i32.shl (local.get $half) (i32.const 1)))
        (br $stage)))
    ;; out[k] = re^2 + im^2, k = 0 .. n/2 (two at a time, the last alone)
    (local.set $k (i32.const 0))
    (loop $p
      (local.set $a (i32.shl (local.get $k) (i32.const 3)))
      (local.set $ra (v128.load (i32.add (local.get $re) (local.get $a))))
      (local.set $ia (v128.load (i32.add (local.get $im) (local.get $a))))
      (v128.store (i32.add (local.get $out) (local.get $a))
        (f64x2.add (f64x2.mul (local.get $ra) (local.get $ra)) (f64x2.mul (local.get $ia) (local.get $ia))))
      (local.set $k (i32.add (local.get $k) (i32.const 2)))
      (br_if $p (i32.lt_u (local.get $k) (i32.shr_u (local.get $n) (i32.const 1)))))
    (local.set $a (i32.shl (i32.shr_u (local.get $n) (i32.const 1)) (i32.const 3)))
    (local.set $srb (f64.load (i32.add (local.get $re) (local.get $a))))
    (local.set $sib (f64.load (i32.add (local.get $im) (local.get $a))))
    (f64.store (i32.add (local.get $out) (local.get $a))
      (f64.add (f64.mul (local.get $srb) (local.get $srb)) (f64.mul (local.get $sib) (local.get $sib))))))
