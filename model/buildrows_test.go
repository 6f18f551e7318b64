package model

// BuildRows makes one agent's status rows in one step, as status does for
// each agent in two (PlanStatusRows, then Build into one slice for all).
func BuildRows(snap AgentSnapshot, cursors CursorState, opt StatusOptions) []SessionRow {
	plan := PlanStatusRows(snap, cursors.Seq, opt)
	rows := make([]SessionRow, plan.Len())
	plan.Build(rows, cursors)
	return rows
}
