package demo

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// writeFiller tops the demo up to Options.Sessions with ordinary sessions of every key
// kind, spread over 90 days (recent ones more often), mostly small, about half observed.
// Peer and channel ids derive from the index, so keys never collide.
func (g *generator) writeFiller() error {
	n := g.opt.Sessions - g.sessionCount
	for i := range n {
		if g.err != nil {
			break
		}
		g.fillerSession(i)
	}
	return g.err
}

func (g *generator) fillerSession(i int) {
	r := g.rand("filler:" + itoa(i))
	agent := "main"
	if r.IntN(4) == 0 {
		agent = "work"
	}
	age := time.Duration(float64(90*dayDur)*math.Pow(r.Float64(), 2)) + 10*minute
	end := g.ago(age)
	start := end.Add(-between(r, 10*minute, 36*hour))
	size := int64(3 * kib * math.Pow(13, r.Float64())) // 3–40 KiB, log-uniform
	if r.IntN(20) == 0 {
		size = 60*kib + r.Int64N(190*kib)
	}
	if f := g.opt.FillerScale; f > 0 && f < 1 {
		size = max(kib, int64(float64(size)*f))
	}
	model := sonnet
	switch x := r.IntN(20); {
	case x < 5:
		model = gpt54
	case x < 8:
		model = haiku
	}
	spec := &sessionSpec{name: "filler-" + itoa(i), agent: agent, id: uuid4(r), start: start, model: model}
	if size > 150*kib {
		spec.compactEvery = 100 * kib
	}
	// A fifth of the observed sessions were observed part-way: two phases, cursor at the first.
	observed := r.Float64()
	if observed >= 0.45 && observed < 0.65 {
		spec.phases = []phase{{size * 6 / 10, start.Add(end.Sub(start) * 6 / 10)}, {size, end}}
	} else {
		spec.phases = []phase{{size, end}}
	}

	key, rt := g.fillerKey(agent, i, r, spec)
	res := g.session(spec)
	if strings.Contains(key, ":cron:") {
		rt = cronRoute(jobOf(agent), res)
		g.logCronRun(jobOf(agent), key, res, pick(r, []string{"ok", "ok", "ok", "ok", "error"}))
	}
	g.addRow(agent, key, res, rt)
	switch {
	case observed < 0.45 || observed < 0.65 && len(res.marks) < 2: // scripted runs have no phases
		g.observe(key, res, res.size, res.last.Add(between(r, 5*minute, 3*hour)))
	case observed < 0.65:
		g.observe(key, res, res.mark(0).offset, res.mark(0).at.Add(between(r, 2*minute, 40*minute)))
	}
}

func jobOf(agent string) string {
	if agent == "work" {
		return "weekly-report"
	}
	return "hourly-sync"
}

var fillerNames = []string{"Elena", "Marco", "Priya", "Jonas", "Kenji", "Dana", "Ines", "Tomás", "Aiko", "Lena", "Omar", "Sofia"}

// fillerKey picks a key kind and the route (origin, delivery) that goes with it.
func (g *generator) fillerKey(agent string, i int, r *randSource, spec *sessionSpec) (string, route) {
	prefix := "agent:" + agent + ":"
	name := pick(r, fillerNames)
	switch x := r.IntN(100); {
	case x < 30:
		peer := fmt.Sprint(5000000000 + int64(i)*7919 + r.Int64N(7919))
		return prefix + "telegram:direct:" + peer, dm("telegram", "telegram:"+peer, name+" id:"+peer)
	case x < 40:
		user := fmt.Sprintf("U0%07X", i*131+r.IntN(131))
		return prefix + "direct:" + strings.ToLower(user), dm("slack", "user:"+user, name)
	case x < 52:
		spec.mix, spec.speakers = mixGroup, []string{name, pick(r, fillerNames), "Dana"}
		id := fmt.Sprint(1100000000000000000 + int64(i)*104729 + r.Int64N(104729))
		return prefix + "discord:channel:" + id, group("discord", "channel", id, "channel:"+id, "#team-"+strings.ToLower(name), "discord:#team-"+strings.ToLower(name))
	case x < 64:
		spec.mix, spec.speakers = mixGroup, []string{name, "Dana"}
		id := fmt.Sprintf("C0%07X", i*97+r.IntN(97))
		return prefix + "slack:channel:" + strings.ToLower(id), group("slack", "channel", id, "channel:"+id, "#proj-"+itoa(i), "slack:#proj-"+itoa(i))
	case x < 72:
		spec.mix, spec.speakers = mixGroup, []string{name, pick(r, fillerNames)}
		id := fmt.Sprint(-1002000000000 - int64(i)*389 - r.Int64N(389))
		return prefix + "telegram:group:" + id, group("telegram", "group", id, "telegram:"+id, name+"'s group", "telegram:g-"+strings.ToLower(name))
	case x < 80:
		phone := fmt.Sprintf("+1555%07d", i*13+r.IntN(13))
		return prefix + "whatsapp:default:direct:" + phone, dm("whatsapp", phone, name+" ("+phone+")")
	case x < 90:
		spec.intro = subagentTask("Look into "+pick(r, projects)+" and report the open questions.", prefix+"main")
		return prefix + "subagent:" + uuid4(r), route{chatType: "direct", label: "Subagent: " + pick(r, projects),
			extra: []any{"spawnedBy", prefix + "main", "spawnDepth", 1, "status", "done"}}
	case x < 96:
		spec.script = cronScript(jobOf(agent), "[cron:"+jobOf(agent)+"] Sync open items from memory/ and post anything new.")
		spec.model, spec.thinkingLevel = haiku, "off"
		return prefix + "cron:" + jobOf(agent) + ":run:" + spec.id, route{}
	default:
		return prefix + "hook:" + uuid4(r), route{chatType: "direct", label: "Hook: " + pick(r, []string{"gmail", "github", "stripe"})}
	}
}
