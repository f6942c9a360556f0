#define CB_BUILD "3ea3be2b779e-dirty"
