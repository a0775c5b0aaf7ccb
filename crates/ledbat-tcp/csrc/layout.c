/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The layouts the loader writes, as the host's C compiler lays them out, for the unit tests
 * of ledbat_tcp::params and ledbat_tcp::rledbat that compare them with the Rust side by
 * name. One line each, from the same lists (X-macros) that declare the structs and enums:
 *
 *   struct NAME SIZE              a struct, then its fields in order:
 *   field NAME FIELD OFFSET SIZE
 *   const ENUM NAME VALUE         an enum's constants in order
 *
 * Built by build.rs for the host only (the BPF objects never contain the table); run by
 * the tests through the path in LBCC_LAYOUT.
 */
#include <stddef.h>
#include <stdio.h>

#include "rledbat.h"

#define LB_PRINT_FIELD(type, name)                                                          \
	printf("field %s %s %zu %zu\n", lb_struct, #name, offsetof(struct LB_STRUCT, name), \
	       sizeof(type));
#define LB_PRINT_CONST(name, value) \
	printf("const %s %s %llu\n", lb_enum, #name, (unsigned long long)(name));

int main(void)
{
	const char *lb_struct, *lb_enum;

#define LB_STRUCT lb_params
	lb_struct = "lb_params";
	printf("struct %s %zu\n", lb_struct, sizeof(struct LB_STRUCT));
	LB_PARAMS_FIELDS(LB_PRINT_FIELD)
#undef LB_STRUCT
#define LB_STRUCT lb_comp_params
	lb_struct = "lb_comp_params";
	printf("struct %s %zu\n", lb_struct, sizeof(struct LB_STRUCT));
	LB_COMP_PARAMS_FIELDS(LB_PRINT_FIELD)
#undef LB_STRUCT
#define LB_STRUCT rl_cfg
	lb_struct = "rl_cfg";
	printf("struct %s %zu\n", lb_struct, sizeof(struct LB_STRUCT));
	RL_CFG_FIELDS(LB_PRINT_FIELD)
#undef LB_STRUCT

	lb_enum = "lb_algo";
	LB_ALGOS(LB_PRINT_CONST)
	lb_enum = "lb_signal";
	LB_SIGNALS(LB_PRINT_CONST)
	lb_enum = "rl_signal";
	RL_SIGNALS(LB_PRINT_CONST)
	return 0;
}
