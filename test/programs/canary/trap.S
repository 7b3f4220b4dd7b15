// An unexpected trap (an illegal instruction) must end the run
// with ((1 << 30 | 2 << 24 | 6) << 1) | 1 in tohost (test 6: its line).
#include "macros.h"

RVTEST_CODE_BEGIN
        TEST_CASE(x14, 0, .word 0xfe000033; li x14, 0)
        j pass
RVTEST_CODE_END
