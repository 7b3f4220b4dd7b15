// The harness's own check: this test must fail at the line of the
// TEST_CASE below (so a failing ISA test cannot go unnoticed), and
// trap.S must report an unexpected trap with its cause and test number.
#include "macros.h"

RVTEST_CODE_BEGIN
        TEST_CASE(x14, 1, li x14, 1)
        TEST_CASE(x14, 2, li x14, 3)            // fails: the exit status is this line, 8
        j pass
RVTEST_CODE_END
