// Regen plays the commands of replaylab .rlog FoodFight replays through the
// original engine (github.com/bitbrawl/foodfight at b14e15e): for each file,
// a field of the match type (2, 3 or 4 seats) from the original's
// FieldGenerator, then every turn's commands through its DefaultTurnRunner.
// It is the original's side of the speed comparison in the README; it is
// not built or run by this repository's tests.
//
// The original draws from an unseeded ThreadLocalRandom, so its fields
// differ from ours and some recorded actions are refused there (played as
// no action, as ours plays a refused action); its warning for each refusal
// is switched off. It prints each file's team points and, per pass over the
// files, the turns per second in the process (-Dreps=N passes).
//
// Build (Java 17, no Maven): from a checkout of the original at b14e15e,
//
//	python3 strip.py $(grep -rl com.google.gson foodfight-api \
//	    foodfight-engine/src/main/java/org/bitbrawl/foodfight/engine/field)
//	mkdir -p stubs/net/jcip/annotations
//	for a in Immutable NotThreadSafe ThreadSafe; do
//	    echo "package net.jcip.annotations; public @interface $a {}" \
//	        > stubs/net/jcip/annotations/$a.java
//	done
//	javac -d out -sourcepath foodfight-api/src/main/java:foodfight-engine/src/main/java:stubs Regen.java
//	java -cp out Regen match1.rlog match2.rlog ...
//
// strip.py removes the Gson adapters (JSON only; Gson is not needed to
// play) and the stubs stand in for the jcip annotations, so that no jar
// has to be fetched.
import java.nio.file.*;
import java.util.*;
import org.bitbrawl.foodfight.controller.Controller.Action;
import org.bitbrawl.foodfight.engine.field.*;
import org.bitbrawl.foodfight.engine.match.*;
import org.bitbrawl.foodfight.field.MatchType;

public class Regen {
	static Action action(String s) {
		switch (s) {
		case "moveForward": return Action.MOVE_FORWARD;
		case "moveBackward": return Action.MOVE_BACKWARD;
		case "turnLeft": return Action.TURN_LEFT;
		case "turnRight": return Action.TURN_RIGHT;
		case "duck": return Action.DUCK;
		case "pickupLeft": return Action.PICKUP_LEFT;
		case "pickupRight": return Action.PICKUP_RIGHT;
		case "throwLeft": return Action.THROW_LEFT;
		case "throwRight": return Action.THROW_RIGHT;
		case "eatLeft": return Action.EAT_LEFT;
		case "eatRight": return Action.EAT_RIGHT;
		default: return null;
		}
	}

	public static void main(String[] args) throws Exception {
		// The fields differ from ours (the engine draws from ThreadLocalRandom),
		// so some recorded actions are refused; silence the warning it logs.
		org.bitbrawl.foodfight.engine.logging.EngineLogger.INSTANCE.setLevel(java.util.logging.Level.OFF);
		int reps = Integer.getInteger("reps", 1);
		long turns = 0;
		for (int rep = 0; rep < reps; rep++) {
		long t0 = System.nanoTime(), turns0 = turns;
		for (String path : args) {
			List<String> lines = Files.readAllLines(Paths.get(path));
			int seats = 0;
			List<String[]> cmds = new ArrayList<>();
			for (String l : lines.subList(1, lines.size())) {
				if (l.startsWith("#")) continue;
				String[] f = l.split("\t", -1);
				seats = f.length - 1;
				cmds.add(Arrays.copyOfRange(f, 1, f.length));
			}
			MatchType type = seats == 2 ? MatchType.DUEL : seats == 3 ? MatchType.FREE_FOR_ALL : MatchType.TEAM;
			FieldState field = new FieldGenerator(type).get();
			List<Character> symbols = new ArrayList<>();
			for (TeamState t : field.getTeamStates())
				for (PlayerState p : t.getPlayerStates())
					symbols.add(p.getSymbol());
			TurnRunner runner = new DefaultTurnRunner();
			for (String[] c : cmds) {
				Map<Character, Action> actions = new HashMap<>();
				for (int i = 0; i < seats; i++)
					actions.put(symbols.get(i), action(c[i]));
				field = runner.runTurn(field, actions);
				turns++;
			}
			StringBuilder sb = new StringBuilder(path).append(": ").append(type);
			for (TeamState t : field.getTeamStates())
				sb.append(' ').append(t.getScore().getTotalPoints());
			System.out.println(sb);
		}
		System.err.printf("pass %d: %.0f turns/s%n", rep + 1, (turns - turns0) / ((System.nanoTime() - t0) / 1e9));
		}
		System.err.println(turns + " turns");
	}
}
