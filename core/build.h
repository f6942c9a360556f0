#define CB_BUILD "d7b0e0da74e9-dirty"
