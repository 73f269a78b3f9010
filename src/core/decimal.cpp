#include "decimal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace seqorder {
namespace {

// A positive number 0.d1 d2 d3 … × 10^point, d1 ≠ 0 and no trailing zero digit (zero: no digits).
struct Decimal {
    std::string digits;
    int point = 0;
};

using Limbs = std::vector<std::uint32_t>;  // a natural number, 32 bits a limb, least significant first

void multiply_add(Limbs& n, std::uint32_t factor, std::uint32_t addend) {
    std::uint64_t carry = addend;
    for (std::uint32_t& limb : n) {
        carry += static_cast<std::uint64_t>(limb) * factor;
        limb = static_cast<std::uint32_t>(carry);
        carry >>= 32;
    }
    if (carry) n.push_back(static_cast<std::uint32_t>(carry));
}

std::uint32_t divide(Limbs& n, std::uint32_t divisor) {  // n /= divisor, the remainder returned
    std::uint64_t rest = 0;
    for (std::size_t i = n.size(); i-- > 0;) {
        rest = (rest << 32) | n[i];
        n[i] = static_cast<std::uint32_t>(rest / divisor);
        rest %= divisor;
    }
    while (!n.empty() && n.back() == 0) n.pop_back();
    return static_cast<std::uint32_t>(rest);
}

Limbs shifted(std::uint64_t m, int shift) {  // m · 2^shift
    Limbs n(static_cast<std::size_t>(shift / 32), 0);
    const int bits = shift % 32;
    const std::uint64_t low = m << bits;
    n.push_back(static_cast<std::uint32_t>(low));
    n.push_back(static_cast<std::uint32_t>(low >> 32));
    if (bits) n.push_back(static_cast<std::uint32_t>(m >> (64 - bits)));
    while (!n.empty() && n.back() == 0) n.pop_back();
    return n;
}

void trim(Decimal& d) {
    const std::size_t first = d.digits.find_first_not_of('0');
    if (first == std::string::npos) {
        d = Decimal{};
        return;
    }
    d.digits.erase(0, first);
    d.point -= static_cast<int>(first);
    d.digits.erase(d.digits.find_last_not_of('0') + 1);
}

// The exact value m · 2^e (m > 0).
Decimal exact(std::uint64_t m, int e) {
    Decimal d;
    if (e >= 0) {
        Limbs n = shifted(m, e);
        std::string reversed;
        while (!n.empty()) {
            std::uint32_t chunk = divide(n, 1000000000u);
            for (int i = 0; i < 9; ++i, chunk /= 10) reversed += static_cast<char>('0' + chunk % 10);
        }
        d.digits.assign(reversed.rbegin(), reversed.rend());
        d.point = static_cast<int>(d.digits.size());
        trim(d);
        return d;
    }
    const int k = -e;  // fraction bits
    const std::uint64_t whole = k >= 64 ? 0 : m >> k;
    const std::uint64_t fraction_m = k >= 64 ? m : m & ((std::uint64_t{1} << k) - 1);
    if (whole) d.digits = std::to_string(whole);
    d.point = static_cast<int>(d.digits.size());
    // the fraction F / 2^k: each digit the bits above k of 10 F
    Limbs f = shifted(fraction_m, 0);
    const std::size_t limb = static_cast<std::size_t>(k / 32);
    const int bit = k % 32;
    while (!f.empty()) {
        multiply_add(f, 10, 0);
        f.resize(std::max(f.size(), limb + 2), 0);
        const std::uint64_t top = (static_cast<std::uint64_t>(f[limb + 1]) << 32) | f[limb];
        d.digits += static_cast<char>('0' + ((top >> bit) & 15));
        f[limb] &= bit ? (std::uint32_t{1} << bit) - 1 : 0;
        f[limb + 1] = 0;
        while (!f.empty() && f.back() == 0) f.pop_back();
    }
    trim(d);
    return d;
}

// |x|'s significand and exponent: |x| = m · 2^e, m < 2^53.
void split(double x, std::uint64_t& m, int& e) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &x, sizeof bits);  // (libc++ of Emscripten 3.1.6 has no std::bit_cast)
    const int stored = static_cast<int>((bits >> 52) & 0x7ff);
    m = bits & ((std::uint64_t{1} << 52) - 1);
    if (stored) m |= std::uint64_t{1} << 52;
    e = (stored ? stored : 1) - 1075;
}

// d rounded to its first n digits (n may be 0 or less: digits before the first), ties to even.
Decimal rounded(Decimal d, int n) {
    if (n >= static_cast<int>(d.digits.size())) return d;
    if (n < 0) return Decimal{};
    const auto at = static_cast<std::size_t>(n);
    const char next = d.digits[at];
    const bool beyond = d.digits.size() > at + 1;
    const bool odd = n > 0 && (d.digits[at - 1] - '0') % 2 == 1;
    d.digits.resize(at);
    if (next > '5' || (next == '5' && (beyond || odd))) {
        std::size_t i = at;
        while (i > 0 && d.digits[i - 1] == '9') d.digits[--i] = '0';
        if (i == 0) {
            d.digits.insert(0, 1, '1');
            d.point += 1;
        } else {
            d.digits[i - 1] = static_cast<char>(d.digits[i - 1] + 1);
        }
    }
    trim(d);
    return d;
}

// a < b: -1, a == b: 0, a > b: 1 (both positive)
int compare(const Decimal& a, const Decimal& b) {
    if (a.digits.empty() || b.digits.empty()) return a.digits.empty() ? (b.digits.empty() ? 0 : -1) : 1;
    if (a.point != b.point) return a.point < b.point ? -1 : 1;
    const int c = a.digits.compare(b.digits);  // no trailing zeros: a prefix is the smaller
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

std::string fixed(const Decimal& d, int decimals) {  // d with exactly `decimals` digits after the point
    std::string s;
    if (d.point <= 0) {
        s = "0";
    } else {
        s = d.digits.substr(0, static_cast<std::size_t>(d.point));
        s.append(static_cast<std::size_t>(d.point) - s.size(), '0');
    }
    if (decimals <= 0) return s;
    std::string fraction;
    for (int i = 0; i < decimals; ++i) {
        const int at = d.point + i;
        fraction += at >= 0 && at < static_cast<int>(d.digits.size()) ? d.digits[static_cast<std::size_t>(at)] : '0';
    }
    return s + "." + fraction;
}

Decimal absolute(double x) {
    std::uint64_t m = 0;
    int e = 0;
    split(x, m, e);
    return m ? exact(m, e) : Decimal{};
}

}  // namespace

std::string f_text(double x, int decimals) {
    const Decimal exact_x = absolute(x);
    std::string s = std::signbit(x) ? "-" : "";
    s += fixed(rounded(exact_x, exact_x.point + decimals), decimals);
    return s;
}

std::string g_text(double x, int digits) {
    std::string s = std::signbit(x) ? "-" : "";
    const Decimal d = rounded(absolute(x), digits);
    if (d.digits.empty()) return s += "0";
    const int exponent = d.point - 1;
    if (exponent >= -4 && exponent < digits)  // %f's form, its trailing zeros (and point) dropped
        return s += fixed(d, std::max(0, static_cast<int>(d.digits.size()) - d.point));
    s += d.digits[0];
    if (d.digits.size() > 1) {
        s += '.';
        s.append(d.digits, 1);
    }
    const int magnitude = exponent < 0 ? -exponent : exponent;
    s += exponent < 0 ? "e-" : "e+";
    if (magnitude < 10) s += '0';
    return s += std::to_string(magnitude);
}

bool g_reads_back(double x, int digits) {
    std::uint64_t m = 0;
    int e = 0;
    split(x, m, e);
    if (!m) return true;
    const Decimal value = rounded(exact(m, e), digits);
    // the halfway points to the neighbours; at a power of two the one below is half as far
    const Decimal above = exact(2 * m + 1, e - 1);
    const Decimal below = m == (std::uint64_t{1} << 52) && e > -1074 ? exact(4 * m - 1, e - 2) : exact(2 * m - 1, e - 1);
    const int a = compare(value, above);
    const int b = compare(value, below);
    if (a < 0 && b > 0) return true;
    return (a == 0 || b == 0) && m % 2 == 0;  // a tie reads back as the even significand
}

}  // namespace seqorder
