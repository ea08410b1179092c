// Dump writes every entry of the PoliMorf dictionary that Debian's
// libmorfologik-stemming-java ships (morfologik-polish.jar, pl.dict) as
// "form<TAB>lemma<TAB>tags" lines on standard output. It is the first step of
// regenerating pl-lemmas.txt.gz; see main.go beside it.
//
//   CP=/usr/share/java/morfologik-stemming.jar:/usr/share/java/morfologik-fsa.jar:/usr/share/java/morfologik-polish.jar
//   javac -d /tmp/pllemma -cp $CP Dump.java && java -cp $CP:/tmp/pllemma Dump > /tmp/polimorf.tsv

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import morfologik.stemming.PolishStemmer;
import morfologik.stemming.WordData;

public class Dump {
    public static void main(String[] args) throws IOException {
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out, 1 << 16), false, "UTF-8");
        for (WordData w : new PolishStemmer()) {
            out.print(w.getWord());
            out.print('\t');
            out.print(w.getStem());
            out.print('\t');
            out.print(w.getTag());
            out.print('\n');
        }
        out.flush();
    }
}
