// libFuzzer's driver, from the toolchain's libclang_rt.fuzzer (linked by -sanitize=fuzzer).
// SwiftPM renames an executable's entry point to <Target>_main, which hides libFuzzer's own main,
// so ParleyFuzz_main calls the driver itself.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
