#pragma once
// Decimal text of a float64, exact: the digits printf's %.*g and %.*f write (correctly rounded, ties to even), computed
// from the number's exact binary value with integer arithmetic alone, so that no printf, strtod or long double (128-bit
// and emulated in WebAssembly) is linked into the modules.
#include <string>

namespace seqorder {

// x as printf's "%.<digits>g" writes it (digits >= 1; x finite).
std::string g_text(double x, int digits);

// x as printf's "%.<decimals>f" writes it (decimals >= 0; x finite).
std::string f_text(double x, int decimals);

// Whether the decimal text printf's "%.<digits>g" gives for x reads back as x (strtod, round to nearest even).
bool g_reads_back(double x, int digits);

}  // namespace seqorder
