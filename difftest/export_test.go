package difftest

// NeedOracle is needOracle for the external tests.
var NeedOracle = needOracle
