/* tunecost.h — the subcommands' entry points. Each lives in its stage's folder and behaves like main():
 * argv[0] is the subcommand's name; it returns 0 on success, 1 on a failure while working, 2 on a usage
 * error or a bad input file (one line on stderr naming the option or file and what was expected). */
#ifndef TUNECOST_H
#define TUNECOST_H

/* Each command's declaration (util/tc_optdecl.h): its options, --help, man page and completions. */
struct tc_cmd;
extern const struct tc_cmd info_cmd, simulate_cmd, frontier_cmd, table_cmd, report_cmd, policies_cmd, merge_cmd, record_cmd;

int cmd_info(int argc, char **argv);      /* analysis/cmd_info.c */
int cmd_cost(int argc, char **argv);      /* analysis/cmd_cost.c: what tuning one input costs and buys */
extern const struct tc_cmd cost_cmd;
int cmd_table(int argc, char **argv);     /* analysis/cmd_table.c: the paper's tables from traces */
int cmd_report(int argc, char **argv);    /* analysis/cmd_report.c */
int cmd_simulate(int argc, char **argv);  /* simulate/cmd_simulate.c */
int cmd_frontier(int argc, char **argv);  /* simulate/cmd_frontier.c */
int cmd_policies(int argc, char **argv);  /* simulate/cmd_policies.c: tuning policies on a trace */
int cmd_merge(int argc, char **argv);     /* collect/cmd_merge.c (no CUDA needed) */
int cmd_export(int argc, char **argv);    /* export/cmd_export.c: a trace as a Kernel Tuner cache or T4 */
extern const struct tc_cmd export_cmd;
int cmd_record(int argc, char **argv);    /* record/cmd_record.c (the injection library needs CUPTI) */
#ifdef TC_HAVE_IMPORT
int cmd_import(int argc, char **argv);    /* import/cmd_import.c (json-c) */
extern const struct tc_cmd import_cmd;
#endif
#ifdef TC_HAVE_COLLECTOR
int cmd_collect(int argc, char **argv);   /* collect/cmd_collect.c (CUDA) */
extern const struct tc_cmd collect_cmd;   /* collect/options.c */
#endif

#endif
