	
Bx1J$°ãGa×Q¸Vü\Laì`&ã]ßã¹bE`ÈMvÍÑpÞëÔkU