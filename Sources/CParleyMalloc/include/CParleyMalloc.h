#ifndef CPARLEY_MALLOC_H
#define CPARLEY_MALLOC_H

#include <stddef.h>

/// Bytes glibc's allocator has handed out and not had back: mallinfo2's small blocks in use plus its mapped
/// blocks. What the process's resident set would be if freed memory went back to the system at once.
size_t parley_heap_in_use(void);

#endif
