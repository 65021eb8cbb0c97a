"""Remove the Gson imports, @SerializedName annotations and nested
Serializer/Deserializer enums from the original FoodFight sources named on
the command line, in place (see Regen.java)."""
import re,sys
for path in sys.argv[1:]:
    s=open(path).read()
    s=re.sub(r'^import com\.google\.gson[^\n]*\n','',s,flags=re.M)
    s=re.sub(r'^\s*@SerializedName\([^)]*\)\s*\n','',s,flags=re.M)
    while True:
        m=re.search(r'\n[ \t]*(?:public |private |static )*enum (?:Serializer|Deserializer)\b[^{]*\{',s)
        if not m: break
        i=m.end(); d=1
        while d:
            c=s[i]
            if c=='{': d+=1
            elif c=='}': d-=1
            i+=1
        s=s[:m.start()]+'\n'+s[i:]
    open(path,'w').write(s)
