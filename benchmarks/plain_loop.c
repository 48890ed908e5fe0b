/* The baseline the kernel is measured against: the paper's pseudocode for one row as a
 * plain C loop, the way one would write it by hand (no overflow checks, no tuning).
 *
 * Fusion: push each coin; while the three top entries satisfy x <= M >= y, replace them by
 * x - M + y. The reduced row is then bitonic (non-decreasing, then non-increasing), so the
 * sort of the pseudocode's Greedy phase is a two-pointer merge from both ends.
 *
 * Built by benchmarks/run.py with `cc -O2 -shared -fPIC` and called through ctypes.
 */
#include <stdint.h>
#include <stdlib.h>

int64_t plain_value(const int64_t *coins, int64_t n)
{
    int64_t *sc = malloc((n > 0 ? n : 1) * sizeof *sc);
    int64_t top = 0, left, right, total = 0, sign = 1;
    if (sc == NULL)
        return INT64_MIN;
    for (int64_t i = 0; i < n; i++) {
        sc[top++] = coins[i];
        while (top >= 3 && sc[top - 3] <= sc[top - 2] && sc[top - 2] >= sc[top - 1]) {
            sc[top - 3] = sc[top - 3] - sc[top - 2] + sc[top - 1];
            top -= 2;
        }
    }
    left = 0;
    right = top - 1;
    while (left <= right) {
        int64_t x;
        if (sc[left] >= sc[right])
            x = sc[left++];
        else
            x = sc[right--];
        total += sign * x;
        sign = -sign;
    }
    free(sc);
    return total;
}

/* The coins of Project Euler problem 477 (the benchmark's "PE 477" family): s(1) = 0,
 * s(i+1) = (s(i)^2 + 45) mod 1000000007. Written in C only because the recurrence is
 * sequential: 10^8 coins take a second here, minutes in Python. */
void pe477_coins(int64_t *out, int64_t n)
{
    uint64_t s = 0;
    for (int64_t i = 0; i < n; i++) {
        out[i] = (int64_t)s;
        s = (s * s + 45) % 1000000007u;
    }
}
