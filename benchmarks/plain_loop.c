/* The baseline the kernel is measured against: the paper's pseudocode for one row as the
 * plain C loop a competent C programmer writes by hand (no overflow checks, no SIMD, no
 * special cases).
 *
 * plain_value: Fusion keeps the incoming coin v in a register and, while the two top
 * entries x, M satisfy x <= M >= v, replaces the three by v = x - M + v (the stack loses two
 * entries); then stores v once. The stack is scratch the caller allocated once, outside the
 * timed call (as the library keeps its scratch between calls). The reduced row is then
 * bitonic (non-decreasing, then non-increasing), so the sort of the pseudocode's Greedy
 * phase is a two-pointer merge from both ends.
 *
 * plain_value_push_first: the earlier baseline, kept for comparison: it mallocs its stack in
 * every call and pushes each coin before testing the three top entries in memory.
 *
 * Built by benchmarks/plain_c.py with `cc -O2 -shared -fPIC` and called through ctypes.
 */
#include <stdint.h>
#include <stdlib.h>

static int64_t greedy(const int64_t *stack, int64_t m)
{
    int64_t left = 0, right = m - 1, total = 0, sign = 1;
    while (left <= right) {
        int64_t x;
        if (stack[left] >= stack[right])
            x = stack[left++];
        else
            x = stack[right--];
        total += sign * x;
        sign = -sign;
    }
    return total;
}

/* stack: room for n entries. */
int64_t plain_value(const int64_t *coins, int64_t n, int64_t *stack)
{
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = coins[i];
        while (m >= 2 && stack[m - 2] <= stack[m - 1] && stack[m - 1] >= v) {
            v = stack[m - 2] - stack[m - 1] + v;
            m -= 2;
        }
        stack[m++] = v;
    }
    return greedy(stack, m);
}

int64_t plain_value_push_first(const int64_t *coins, int64_t n)
{
    int64_t *sc = malloc((n > 0 ? n : 1) * sizeof *sc);
    int64_t top = 0, total;
    if (sc == NULL)
        return INT64_MIN;
    for (int64_t i = 0; i < n; i++) {
        sc[top++] = coins[i];
        while (top >= 3 && sc[top - 3] <= sc[top - 2] && sc[top - 2] >= sc[top - 1]) {
            sc[top - 3] = sc[top - 3] - sc[top - 2] + sc[top - 1];
            top -= 2;
        }
    }
    total = greedy(sc, top);
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
