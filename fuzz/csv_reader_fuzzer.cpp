// libFuzzer target: the CSV reader behind --resume (parse_csv, read_csv_rows).
// Malformed text may only raise CsvParseError or UsageError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "report/csv.h"
#include "report/csv_reader.h"
#include "tracebench/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto records = tracebench::parse_csv(text);
    // Every field of a record that parsed lives in the input.
    for (const auto& record : records) {
      for (const auto& field : record) {
        if (field.size() > size) __builtin_trap();
      }
    }
  } catch (const tracebench::CsvParseError&) {
  }
  // Also through the row reader, behind a valid header so the fields are read.
  for (const bool accuracy : {false, true}) {
    try {
      tracebench::read_csv_rows(tracebench::csv_header(accuracy) + "\n" + text, accuracy);
    } catch (const tracebench::CsvParseError&) {
    } catch (const tracebench::UsageError&) {
    }
  }
  return 0;
}
